//! The net's inner loops, written once as plain loops the compiler vectorises, and compiled
//! twice on x86-64: for the baseline and for AVX2, chosen at run time.

use super::network::QA;

#[inline(always)]
fn add_portable(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub_portable(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// Σ clamp(v, 0, QA)² · w. A net's output weights are at most `MAX_OUTPUT_WEIGHT` in size
/// (the file reader refuses others), so a product is below 2^23 and a block of 32 sums
/// below 2^28 in an i32; the blocks are then added in an i64.
#[inline(always)]
fn screlu_dot_portable(values: &[i16], weights: &[i16]) -> i64 {
    let mut total = 0i64;
    for (vs, ws) in values.chunks(32).zip(weights.chunks(32)) {
        let mut block = 0i32;
        for (&v, &w) in vs.iter().zip(ws) {
            let c = i32::from(v).clamp(0, QA);
            block = block.wrapping_add((c * i32::from(w)).wrapping_mul(c));
        }
        total += i64::from(block);
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub fn add(acc: &mut [i16], row: &[i16]) {
        super::add_portable(acc, row)
    }
    #[target_feature(enable = "avx2")]
    pub fn sub(acc: &mut [i16], row: &[i16]) {
        super::sub_portable(acc, row)
    }
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
        super::screlu_dot_portable(values, weights)
    }
}

#[inline(always)]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `acc += row`, element by element.
#[inline]
pub fn add(acc: &mut [i16], row: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::add(acc, row) };
    }
    add_portable(acc, row)
}

/// `acc -= row`, element by element.
#[inline]
pub fn sub(acc: &mut [i16], row: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::sub(acc, row) };
    }
    sub_portable(acc, row)
}

/// Σ clamp(v, 0, QA)² · w over the hidden values and their output weights.
#[inline]
pub fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::screlu_dot(values, weights) };
    }
    screlu_dot_portable(values, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatched kernels agree with the plain loops, on lengths that are and are not
    /// multiples of the vector width.
    #[test]
    fn the_fast_path_agrees_with_the_plain_loops() {
        for len in [16usize, 48, 128, 200] {
            let values: Vec<i16> = (0..len).map(|i| ((i * 37) % 600) as i16 - 200).collect();
            let weights: Vec<i16> = (0..len).map(|i| ((i * 53) % 250) as i16 - 125).collect();
            assert_eq!(
                screlu_dot(&values, &weights),
                screlu_dot_portable(&values, &weights)
            );
            let expected: i64 = values
                .iter()
                .zip(&weights)
                .map(|(&v, &w)| {
                    let c = i64::from(v).clamp(0, 255);
                    c * c * i64::from(w)
                })
                .sum();
            assert_eq!(screlu_dot(&values, &weights), expected);
            let mut a = values.clone();
            add(&mut a, &weights);
            sub(&mut a, &weights);
            assert_eq!(a, values);
        }
    }
}
