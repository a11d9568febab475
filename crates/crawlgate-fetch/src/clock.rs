//! The clock, behind a trait so tests control time.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

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
    fn the_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new(SystemTime::UNIX_EPOCH);
        clock.advance(Duration::from_secs(86_400));
        assert_eq!(
            clock.now(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(86_400)
        );
        clock.set(SystemTime::UNIX_EPOCH);
        assert_eq!(clock.now(), SystemTime::UNIX_EPOCH);
    }
}
