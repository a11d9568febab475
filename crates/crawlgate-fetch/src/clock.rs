//! The clock, behind a trait so tests control time.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// One day.
pub(crate) const DAY: Duration = Duration::from_secs(86_400);

/// `now + by`, saturating instead of panicking on absurd settings.
pub(crate) fn later(now: SystemTime, by: Duration) -> SystemTime {
    now.checked_add(by)
        .or_else(|| now.checked_add(365 * DAY))
        .unwrap_or(now)
}

/// A source of the current time. The fetch policy never reads a clock
/// itself: the [`Fetcher`](crate::Fetcher) reads this one and passes `now`.
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that only moves when told to.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_fetch::{Clock, ManualClock};
/// let clock = ManualClock::new(SystemTime::UNIX_EPOCH);
/// clock.advance(Duration::from_secs(90));
/// assert_eq!(clock.now(), SystemTime::UNIX_EPOCH + Duration::from_secs(90));
/// ```
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<SystemTime>,
}

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: SystemTime) -> ManualClock {
        ManualClock {
            now: Mutex::new(start),
        }
    }

    /// Sets the time.
    pub fn set(&self, now: SystemTime) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = now;
    }

    /// Moves the time forward.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_saturates_instead_of_panicking() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(later(now, DAY), now + DAY);
        assert_eq!(later(now, Duration::MAX), now + 365 * DAY);
    }

    #[test]
    fn the_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new(SystemTime::UNIX_EPOCH);
        clock.advance(DAY);
        assert_eq!(clock.now(), SystemTime::UNIX_EPOCH + DAY);
        clock.set(SystemTime::UNIX_EPOCH);
        assert_eq!(clock.now(), SystemTime::UNIX_EPOCH);
    }
}
