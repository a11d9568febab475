//! The politeness schedule with a horizon: a reservation is granted only
//! while the origin's next free time stays within `horizon` of now, so a
//! client that reserves without fetching can push an origin back by at most
//! the horizon, and a reservation never outlives it. The decision is one
//! pure function ([`plan`]) that both stores apply (the embedded one under
//! a lock, Redis with compare-and-set); a stored slot further ahead than the
//! horizon (written by an older version, or before the horizon was lowered)
//! is read as if it were at the horizon.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crawlgate_answers::Origin;
use crawlgate_fetch::Pacing;

/// What a reservation (or a look at the schedule) gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Reserved: the request may be sent then.
    Reserved(SystemTime),
    /// Not reserved (only read): the earliest time a request could be sent.
    Free(SystemTime),
    /// Refused: granting it would push the origin's next free time past
    /// the horizon. A reservation can succeed from `retry_at` on.
    Full {
        /// When asking again can succeed.
        retry_at: SystemTime,
    },
}

/// The reservation `pacing` allows on an origin whose last reserved slot is
/// `last`, at `now`: the slot, and whether it fits within the horizon
/// (`Err` carries the time from which it would).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_fetch::{Pacing, PolitenessConfig};
/// use crawlgate_server::plan_slot;
///
/// let pacing = Pacing::unrestricted(&PolitenessConfig::default()); // 1 s apart
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
/// let horizon = Duration::from_secs(10);
/// assert_eq!(plan_slot(None, &pacing, now, horizon), Ok(now));
/// assert_eq!(plan_slot(Some(now), &pacing, now, horizon), Ok(now + Duration::from_secs(1)));
/// // The slot after 9 s ahead would leave the next free time 11 s ahead.
/// let late = now + Duration::from_secs(9);
/// assert_eq!(plan_slot(Some(late), &pacing, now, horizon), Err(now + Duration::from_secs(1)));
/// ```
pub fn plan_slot(
    last: Option<SystemTime>,
    pacing: &Pacing,
    now: SystemTime,
    horizon: Duration,
) -> Result<SystemTime, SystemTime> {
    let limit = now.checked_add(horizon).unwrap_or(now);
    let last = last.map(|slot| slot.min(limit));
    let at = pacing.next_permitted(last, now);
    let free_after = at.checked_add(pacing.delay_at(at)).unwrap_or(at);
    if free_after <= limit {
        Ok(at)
    } else {
        // From then on, the same slot leaves the next free time within it.
        let late = free_after.duration_since(limit).unwrap_or_default();
        Err(now.checked_add(late).unwrap_or(now))
    }
}

/// The embedded store's schedule: the last reserved slot per origin, in
/// memory (a restart forgets it, which loses at most the horizon).
#[derive(Debug)]
pub struct EmbeddedSchedule {
    slots: Mutex<HashMap<Origin, SystemTime>>,
    max_origins: usize,
}

impl EmbeddedSchedule {
    /// A schedule remembering at most `max_origins` origins.
    pub fn new(max_origins: usize) -> EmbeddedSchedule {
        EmbeddedSchedule {
            slots: Mutex::new(HashMap::new()),
            max_origins: max_origins.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Origin, SystemTime>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves (or, with `reserve` false, only reads) the next slot.
    pub fn slot(
        &self,
        origin: &Origin,
        pacing: &Pacing,
        now: SystemTime,
        horizon: Duration,
        reserve: bool,
    ) -> Slot {
        let mut slots = self.lock();
        let last = slots.get(origin).copied();
        if !reserve {
            let limit = now.checked_add(horizon).unwrap_or(now);
            return Slot::Free(pacing.next_permitted(last.map(|l| l.min(limit)), now));
        }
        match plan_slot(last, pacing, now, horizon) {
            Ok(at) => {
                slots.insert(origin.clone(), at);
                if slots.len() > self.max_origins {
                    // A slot more than the horizon old constrains nothing.
                    slots.retain(|_, slot| {
                        slot.checked_add(horizon).is_none_or(|until| until > now)
                    });
                    if slots.len() > self.max_origins {
                        let keep = origin.clone();
                        let mut by_time: Vec<(SystemTime, Origin)> = slots
                            .iter()
                            .filter(|(o, _)| **o != keep)
                            .map(|(o, at)| (*at, o.clone()))
                            .collect();
                        by_time.sort_unstable_by_key(|(at, _)| *at);
                        let excess = slots.len() - self.max_origins;
                        for (_, o) in by_time.into_iter().take(excess) {
                            slots.remove(&o);
                        }
                    }
                }
                Slot::Reserved(at)
            }
            Err(retry_at) => Slot::Full { retry_at },
        }
    }

    /// Forgets `origin`'s reservations; whether there were any.
    pub fn reset(&self, origin: &Origin) -> bool {
        self.lock().remove(origin).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;
    use crawlgate_fetch::PolitenessConfig;

    fn pacing(body: &str) -> Pacing {
        let robots = RobotsTxt::parse(body.as_bytes());
        Pacing::from_view(&robots.view("bot"), &PolitenessConfig::default())
    }

    #[test]
    fn reservations_stay_within_the_horizon() {
        let schedule = EmbeddedSchedule::new(10);
        let origin = Origin::from_url("https://a.test/").unwrap();
        let p = pacing("User-agent: *\nCrawl-delay: 5\n");
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let horizon = Duration::from_secs(60);
        let mut reserved = 0;
        for _ in 0..1_000 {
            match schedule.slot(&origin, &p, now, horizon, true) {
                Slot::Reserved(at) => {
                    assert!(at + Duration::from_secs(5) <= now + horizon);
                    reserved += 1;
                }
                Slot::Full { retry_at } => assert_eq!(retry_at, now + Duration::from_secs(5)),
                Slot::Free(_) => unreachable!(),
            }
        }
        // now, now+5 … now+55: twelve slots, then full.
        assert_eq!(reserved, 12);
        let Slot::Free(next) = schedule.slot(&origin, &p, now, horizon, false) else {
            unreachable!()
        };
        assert_eq!(next, now + horizon);
        // Time passing frees slots again; a reset frees them all.
        let later = now + Duration::from_secs(5);
        assert!(matches!(
            schedule.slot(&origin, &p, later, horizon, true),
            Slot::Reserved(at) if at == now + horizon
        ));
        assert!(schedule.reset(&origin));
        assert_eq!(
            schedule.slot(&origin, &p, later, horizon, true),
            Slot::Reserved(later)
        );
    }

    #[test]
    fn a_slot_stored_beyond_the_horizon_reads_as_at_it() {
        let p = pacing("User-agent: *\n");
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let six_days = now + Duration::from_secs(6 * 86_400);
        let horizon = Duration::from_secs(600);
        // Read as at now + 600 s: the next slot (now + 601 s) fits two
        // seconds from now.
        assert_eq!(
            plan_slot(Some(six_days), &p, now, horizon),
            Err(now + Duration::from_secs(2))
        );
        // A visit-time window hours away is past the horizon: refused, with
        // the time from which it can be reserved.
        let p = pacing("User-agent: *\nVisit-time: 0200-0300\n");
        let midnight = SystemTime::UNIX_EPOCH + Duration::from_secs(19_676 * 86_400);
        assert_eq!(
            plan_slot(None, &p, midnight, horizon),
            Err(midnight + Duration::from_secs(2 * 3600 + 1 - 600))
        );
    }
}
