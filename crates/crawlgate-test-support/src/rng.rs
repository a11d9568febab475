//! A small seeded generator, so that a failing random test reproduces.

/// SplitMix64: small, seedable, good enough to spread test cases.
///
/// ```
/// use crawlgate_test_support::Rng;
///
/// let (mut a, mut b) = (Rng::new(1), Rng::new(1));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_eq!(a.pick(&["x", "y"]), b.pick(&["x", "y"]));
/// ```
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator that starts from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// `true` `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A reference to one of `items` (which must not be empty).
    pub fn pick_ref<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.byte()).collect()
    }

    /// Up to `max` of `pieces`, joined.
    pub fn text(&mut self, pieces: &[&str], max: usize) -> String {
        (0..self.below(max + 1))
            .map(|_| self.pick(pieces))
            .collect()
    }
}
