//! One value per profile, made when first asked for: how every front end
//! keeps a robots.txt read once under each profile some question needs
//! (a given or fetched file, a distinct body of a batch).

use std::sync::OnceLock;

use crawlgate::Profile;

/// A slot for each profile of [`Profile::ALL`], filled the first time it is
/// asked for and kept: asking again, or from another thread, gives the same
/// value. A profile outside [`Profile::ALL`] (one a caller built) has no
/// slot, and the caller makes its value each time.
///
/// ```
/// use crawlgate::{Profile, RobotsTxt};
/// use crawlgate_answers::ByProfile;
///
/// let body = b"User-agent: *\nDisallow: /*.php$\n";
/// let readings: ByProfile<RobotsTxt> = ByProfile::new();
/// let parse = |profile| RobotsTxt::parse_with(body, profile);
/// let google = readings.get_or_init(Profile::GOOGLE, || parse(Profile::GOOGLE)).unwrap();
/// assert_eq!(google.profile(), Profile::GOOGLE);
/// // Made once: the second call finds the first value.
/// let again = readings.get_or_init(Profile::GOOGLE, || unreachable!()).unwrap();
/// assert!(std::ptr::eq(google, again));
/// assert!(readings.get(Profile::BING).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct ByProfile<T> {
    slots: [OnceLock<T>; Profile::ALL.len()],
}

impl<T> Default for ByProfile<T> {
    fn default() -> Self {
        ByProfile {
            slots: Default::default(),
        }
    }
}

impl<T> ByProfile<T> {
    /// Every slot empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value for `profile`, made by `make` the first time; `None` for a
    /// profile without a slot (then `make` is not called).
    pub fn get_or_init(&self, profile: Profile, make: impl FnOnce() -> T) -> Option<&T> {
        self.slot(profile).map(|slot| slot.get_or_init(make))
    }

    /// The value for `profile`, if it was made.
    pub fn get(&self, profile: Profile) -> Option<&T> {
        self.slot(profile)?.get()
    }

    /// Keeps `value` for `profile` unless one is already kept (or the
    /// profile has no slot).
    pub fn set(&self, profile: Profile, value: T) {
        if let Some(slot) = self.slot(profile) {
            let _ = slot.set(value);
        }
    }

    fn slot(&self, profile: Profile) -> Option<&OnceLock<T>> {
        let index = Profile::ALL.iter().position(|p| *p == profile)?;
        Some(&self.slots[index])
    }
}
