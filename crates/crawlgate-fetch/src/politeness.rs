//! Politeness: how often a crawler may request pages from one origin, from
//! `Crawl-delay`, `Request-rate` and `Visit-time` (extension records that
//! RFC 9309 §2.2.4 leaves to crawlers; docs/behaviour.md §7), within a
//! configurable floor and cap, and a per-origin schedule of the next
//! permitted request time.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crawlgate::{AgentView, RequestRate, VisitTime};

use crawlgate_answers::time::later;
use crawlgate_answers::Origin;

/// Politeness settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PolitenessConfig {
    /// The shortest delay between two requests to one origin, whatever
    /// robots.txt says (1 s).
    pub floor: Duration,
    /// The longest delay obeyed, however long robots.txt asks for (60 s).
    pub cap: Duration,
    /// Only schedule requests inside a `Visit-time` window (on).
    pub obey_visit_time: bool,
    /// How many origins the schedule remembers (100,000); past that the
    /// ones that no longer constrain anything are forgotten first.
    pub max_origins: usize,
}

impl Default for PolitenessConfig {
    fn default() -> Self {
        PolitenessConfig {
            floor: Duration::from_secs(1),
            cap: Duration::from_secs(60),
            obey_visit_time: true,
            max_origins: 100_000,
        }
    }
}

/// One crawler's pace on one origin.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate::RobotsTxt;
/// use crawlgate_fetch::{Pacing, PolitenessConfig};
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nCrawl-delay: 5\nRequest-rate: 1/10s\n");
/// let pacing = Pacing::from_view(&robots.view("bot"), &PolitenessConfig::default());
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
/// assert_eq!(pacing.delay_at(now), Duration::from_secs(10)); // the stricter of the two
/// assert_eq!(pacing.next_permitted(Some(now), now), now + Duration::from_secs(10));
/// assert_eq!(pacing.next_permitted(None, now), now);
/// ```
#[derive(Clone, Copy, PartialEq)]
pub struct Pacing {
    crawl_delay: Option<Duration>,
    rate: Option<RequestRate>,
    visit: Option<VisitTime>,
    floor: Duration,
    cap: Duration,
}

impl fmt::Debug for Pacing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pacing")
            .field("crawl_delay", &self.crawl_delay)
            .field("request_interval", &self.rate.map(|r| r.interval()))
            .field(
                "visit_time",
                &self.visit.map(|v| format!("{}-{}", v.from, v.to)),
            )
            .field("floor", &self.floor)
            .field("cap", &self.cap)
            .finish()
    }
}

impl Pacing {
    /// The pace when robots.txt says nothing: the floor.
    pub fn unrestricted(config: &PolitenessConfig) -> Pacing {
        Pacing {
            crawl_delay: None,
            rate: None,
            visit: None,
            floor: config.floor,
            cap: config.cap,
        }
    }

    /// The pace a crawler's groups ask for.
    pub fn from_view(view: &AgentView<'_>, config: &PolitenessConfig) -> Pacing {
        Pacing {
            crawl_delay: view.crawl_delay().map(|d| d.duration()),
            rate: view.request_rate(),
            visit: view.visit_time().filter(|_| config.obey_visit_time),
            ..Pacing::unrestricted(config)
        }
    }

    /// The `Visit-time` window obeyed, if any.
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.visit
    }

    /// The delay between two requests at time `at`: the longer of the
    /// crawl-delay and the request-rate interval (when its window, if any,
    /// contains `at`), within the floor and the cap.
    pub fn delay_at(&self, at: SystemTime) -> Duration {
        let rate = self
            .rate
            .filter(|r| r.window.is_none_or(|w| w.contains(minute_of_day(at))))
            .map(|r| r.interval());
        let asked = self
            .crawl_delay
            .into_iter()
            .chain(rate)
            .max()
            .unwrap_or_default();
        // max then min, not clamp: clamp panics when floor > cap.
        asked.max(self.floor).min(self.cap)
    }

    /// The earliest time a request may be sent, given when the last one was
    /// (or was scheduled): at least the delay after it, and inside the
    /// visit-time window.
    pub fn next_permitted(&self, last: Option<SystemTime>, now: SystemTime) -> SystemTime {
        let mut earliest = now;
        if let Some(last) = last {
            earliest = earliest.max(later(last, self.delay_at(last)));
        }
        match self.visit {
            Some(window) if !window.contains(minute_of_day(earliest)) => {
                next_window_start(window, earliest)
            }
            _ => earliest,
        }
    }
}

fn seconds_of_day(at: SystemTime) -> u64 {
    at.duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
        % 86_400
}

fn minute_of_day(at: SystemTime) -> u32 {
    (seconds_of_day(at) / 60) as u32
}

/// The next time the window opens after `at` (which is outside it).
fn next_window_start(window: VisitTime, at: SystemTime) -> SystemTime {
    let into_day = Duration::from_secs(seconds_of_day(at));
    let midnight = at.checked_sub(into_day).unwrap_or(at);
    let start = midnight + Duration::from_secs(u64::from(window.from.minutes()) * 60);
    if start > at {
        start
    } else {
        start + Duration::from_secs(86_400)
    }
}

/// The next permitted request time per origin, shared by every task of a
/// crawler. Bounded: it forgets origins whose last slot no longer
/// constrains anything first.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_answers::Origin;
/// use crawlgate_fetch::{Pacing, PolitenessConfig, Schedule};
///
/// let schedule = Schedule::new(1000);
/// let origin = Origin::from_url("https://example.com/").unwrap();
/// let pacing = Pacing::unrestricted(&PolitenessConfig::default()); // 1 s floor
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
/// assert_eq!(schedule.reserve(&origin, &pacing, now), now);
/// assert_eq!(schedule.reserve(&origin, &pacing, now), now + Duration::from_secs(1));
/// assert_eq!(schedule.reserve(&origin, &pacing, now), now + Duration::from_secs(2));
/// ```
#[derive(Debug)]
pub struct Schedule {
    slots: Mutex<HashMap<Origin, SystemTime>>,
    max_origins: usize,
}

impl Schedule {
    /// A schedule remembering at most `max_origins` origins (at least 1).
    pub fn new(max_origins: usize) -> Schedule {
        Schedule {
            slots: Mutex::new(HashMap::new()),
            max_origins: max_origins.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Origin, SystemTime>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// When the next request to `origin` could be sent, without reserving it.
    pub fn peek(&self, origin: &Origin, pacing: &Pacing, now: SystemTime) -> SystemTime {
        let last = self.lock().get(origin).copied();
        pacing.next_permitted(last, now)
    }

    /// Reserves the next permitted request time for `origin` and returns it;
    /// the caller sends its request then.
    pub fn reserve(&self, origin: &Origin, pacing: &Pacing, now: SystemTime) -> SystemTime {
        let mut slots = self.lock();
        let at = pacing.next_permitted(slots.get(origin).copied(), now);
        slots.insert(origin.clone(), at);
        if slots.len() > self.max_origins {
            // A slot older than the cap cannot delay anything any more.
            let cap = pacing.cap;
            slots.retain(|_, slot| later(*slot, cap) > now);
            if slots.len() > self.max_origins {
                // Still full: forget the earliest slots, down to 90 %, so this
                // scan does not run on every call.
                let keep = (self.max_origins - self.max_origins / 10).max(1);
                let mut by_time: Vec<(SystemTime, Origin)> = slots
                    .iter()
                    .filter(|(o, _)| *o != origin)
                    .map(|(o, slot)| (*slot, o.clone()))
                    .collect();
                by_time.sort_unstable_by_key(|(slot, _)| *slot);
                let excess = slots.len().saturating_sub(keep);
                for (_, o) in by_time.into_iter().take(excess) {
                    slots.remove(&o);
                }
            }
        }
        at
    }

    /// How many origins are remembered.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no origin is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;

    const SEC: Duration = Duration::from_secs(1);

    /// Midnight UTC, 2023-11-15.
    fn midnight() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(19_676 * 86_400)
    }

    fn pacing(body: &str, config: &PolitenessConfig) -> Pacing {
        let robots = RobotsTxt::parse(body.as_bytes());
        Pacing::from_view(&robots.view("bot"), config)
    }

    #[test]
    fn crawl_delay_within_floor_and_cap() {
        let config = PolitenessConfig::default();
        let now = midnight();
        assert_eq!(
            pacing("User-agent: *\nCrawl-delay: 5\n", &config).delay_at(now),
            5 * SEC
        );
        assert_eq!(
            pacing("User-agent: *\nCrawl-delay: 2.5\n", &config).delay_at(now),
            Duration::from_millis(2500)
        );
        assert_eq!(
            pacing("User-agent: *\nCrawl-delay: 0.1\n", &config).delay_at(now),
            SEC
        );
        assert_eq!(
            pacing("User-agent: *\nCrawl-delay: 3600\n", &config).delay_at(now),
            60 * SEC
        );
        assert_eq!(
            pacing("User-agent: *\nDisallow: /x\n", &config).delay_at(now),
            SEC
        );
        // Another crawler's delay does not apply.
        assert_eq!(
            pacing("User-agent: other\nCrawl-delay: 30\n", &config).delay_at(now),
            SEC
        );
        let custom = PolitenessConfig {
            floor: Duration::ZERO,
            cap: 10 * SEC,
            ..PolitenessConfig::default()
        };
        assert_eq!(
            pacing("User-agent: *\nDisallow:\n", &custom).delay_at(now),
            Duration::ZERO
        );
        assert_eq!(
            pacing("User-agent: *\nCrawl-delay: 20\n", &custom).delay_at(now),
            10 * SEC
        );
        // Inverted settings do not panic.
        let inverted = PolitenessConfig {
            floor: 10 * SEC,
            cap: SEC,
            ..PolitenessConfig::default()
        };
        assert_eq!(Pacing::unrestricted(&inverted).delay_at(now), SEC);
        // Huge settings saturate rather than panic.
        let huge = PolitenessConfig {
            cap: Duration::MAX,
            ..PolitenessConfig::default()
        };
        let p = pacing("User-agent: *\nCrawl-delay: 99999999999\n", &huge);
        assert!(p.next_permitted(Some(now), now) > now);
        let schedule = Schedule::new(1);
        let a = Origin::from_url("http://a.test/").unwrap();
        let b = Origin::from_url("http://b.test/").unwrap();
        schedule.reserve(&a, &p, now);
        schedule.reserve(&b, &p, now);
        assert_eq!(schedule.len(), 1);
    }

    #[test]
    fn request_rate_and_its_window() {
        let config = PolitenessConfig::default();
        let p = pacing("User-agent: *\nRequest-rate: 1/5m\n", &config);
        assert_eq!(p.delay_at(midnight()), 60 * SEC, "capped at 60 s");
        let p = pacing(
            "User-agent: *\nRequest-rate: 3/15\nCrawl-delay: 2\n",
            &config,
        );
        assert_eq!(p.delay_at(midnight()), 5 * SEC);
        // A rate limited to 08:00–17:00 applies only then.
        let p = pacing("User-agent: *\nRequest-rate: 1/30s 0800-1700\n", &config);
        assert_eq!(p.delay_at(midnight() + 9 * 3600 * SEC), 30 * SEC);
        assert_eq!(p.delay_at(midnight() + 20 * 3600 * SEC), SEC);
    }

    #[test]
    fn visit_time_moves_requests_into_the_window() {
        let config = PolitenessConfig::default();
        let p = pacing("User-agent: *\nVisit-time: 0200-0400\n", &config);
        // 01:00 → 02:00 the same day.
        let one = midnight() + 3600 * SEC;
        assert_eq!(p.next_permitted(None, one), midnight() + 2 * 3600 * SEC);
        // 03:00 is inside.
        let three = midnight() + 3 * 3600 * SEC;
        assert_eq!(p.next_permitted(None, three), three);
        // 05:00 → 02:00 the next day.
        let five = midnight() + 5 * 3600 * SEC;
        assert_eq!(p.next_permitted(None, five), midnight() + 26 * 3600 * SEC);
        // A window across midnight.
        let p = pacing("User-agent: *\nVisit-time: 2300-0100\n", &config);
        assert_eq!(p.next_permitted(None, midnight()), midnight());
        assert_eq!(
            p.next_permitted(None, midnight() + 12 * 3600 * SEC),
            midnight() + 23 * 3600 * SEC
        );
        // Ignored when configured so.
        let ignore = PolitenessConfig {
            obey_visit_time: false,
            ..PolitenessConfig::default()
        };
        let p = pacing("User-agent: *\nVisit-time: 0200-0400\n", &ignore);
        assert_eq!(p.next_permitted(None, one), one);
        assert!(p.visit_time().is_none());
    }

    #[test]
    fn schedule_spaces_requests_per_origin() {
        let schedule = Schedule::new(100);
        let a = Origin::from_url("http://a.test/").unwrap();
        let b = Origin::from_url("http://b.test/").unwrap();
        let p = pacing(
            "User-agent: *\nCrawl-delay: 10\n",
            &PolitenessConfig::default(),
        );
        let now = midnight();
        assert_eq!(schedule.reserve(&a, &p, now), now);
        assert_eq!(schedule.reserve(&a, &p, now), now + 10 * SEC);
        assert_eq!(
            schedule.reserve(&b, &p, now),
            now,
            "other origins are independent"
        );
        assert_eq!(schedule.peek(&a, &p, now), now + 20 * SEC);
        assert_eq!(
            schedule.peek(&a, &p, now),
            now + 20 * SEC,
            "peek reserves nothing"
        );
        // Long after the last slot, the next one is now.
        let later = now + 3600 * SEC;
        assert_eq!(schedule.reserve(&a, &p, later), later);
    }

    #[test]
    fn schedule_is_bounded() {
        let schedule = Schedule::new(50);
        let p = Pacing::unrestricted(&PolitenessConfig::default());
        let now = midnight();
        for n in 0..500 {
            let o = Origin::from_url(&format!("http://h{n}.test/")).unwrap();
            // All reserved at the same instant: none is old enough to drop
            // by age, so the size bound must do it.
            schedule.reserve(&o, &p, now);
            assert!(schedule.len() <= 50);
        }
        let last = Origin::from_url("http://h499.test/").unwrap();
        assert_eq!(
            schedule.peek(&last, &p, now),
            now + SEC,
            "the newest is kept"
        );
        for n in 0..500 {
            let o = Origin::from_url(&format!("http://g{n}.test/")).unwrap();
            schedule.reserve(&o, &p, now + Duration::from_secs(3600 + n));
            assert!(schedule.len() <= 50);
        }
    }
}
