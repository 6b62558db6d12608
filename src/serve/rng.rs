//! A small deterministic random source (SplitMix64): what the mock's values are drawn from,
//! so that a `--seed` gives the same answers on every machine and in every release of the
//! same code. Not for anything secret.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): one 64-bit state, a good spread from any seed, seeds 0 included.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    /// True one time in `n`.
    pub fn chance(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// A 64-bit FNV-1a hash of `text`: a tool's name made into a seed.
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_fixed_by_the_seed() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let xs: Vec<u64> = (0..4).map(|_| a.next()).collect();
        assert_eq!(xs, (0..4).map(|_| b.next()).collect::<Vec<_>>());
        assert_ne!(Rng::new(1).next(), Rng::new(2).next());
        assert!((0..100).all(|_| a.below(7) < 7));
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
