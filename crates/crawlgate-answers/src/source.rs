//! A robots.txt as it was given, pasted or read as bytes or fetched, and
//! kept that way so that it can be read under any profile: the one type
//! behind the command line's loaded files and the service's
//! `{robots_txt | url}`.

use crawlgate::{Profile, RobotsTxt};
use std::borrow::Cow;

use crate::by_profile::ByProfile;
use crate::outcome::{Outcome, Rules};
use crate::reading::Robots;

/// A robots.txt as given: bytes (a file, standard input, a pasted text) or
/// what fetching it gave. It keeps its bytes, and reads them under a
/// profile when first asked for that profile, once: asking again, or from
/// another thread, gives the same [`Robots`].
///
/// ```
/// use crawlgate::Profile;
/// use crawlgate_answers::RobotsSource;
///
/// let source = RobotsSource::from_bytes(b"User-agent: *\nDisallow: /*.php$\n".to_vec());
/// assert_eq!(source.len(), 32);
/// let google = source.read(Profile::GOOGLE);
/// assert!(!google.decide("mybot", "/index.php").allowed);
/// // The legacy (urllib) reading has no wildcards.
/// assert!(source.read(Profile::LEGACY).decide("mybot", "/index.php").allowed);
/// // Read once per profile.
/// assert!(std::ptr::eq(&*google, &*source.read(Profile::GOOGLE)));
/// ```
#[derive(Clone, Debug)]
pub struct RobotsSource {
    given: Given,
    /// The reading under each profile asked for.
    readings: ByProfile<Robots>,
}

#[derive(Clone, Debug)]
enum Given {
    Bytes(Vec<u8>),
    Fetched(Outcome),
}

impl RobotsSource {
    /// Bytes a caller read or was given: their rules alone decide.
    pub fn from_bytes(bytes: Vec<u8>) -> RobotsSource {
        RobotsSource {
            given: Given::Bytes(bytes),
            readings: Default::default(),
        }
    }

    /// What fetching it gave: its fetch outcome decides, and a fetched
    /// file is read again under another profile than the fetch's.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use crawlgate::Profile;
    /// use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse, RobotsSource};
    ///
    /// let failed = FetchResult::Response(HttpResponse::new(503));
    /// let (outcome, _) = FetchPolicy::default().apply(&failed, None, SystemTime::now());
    /// let source = RobotsSource::fetched(outcome);
    /// assert_eq!((source.body(), source.len()), (None, 0));
    /// let verdict = source.read(Profile::BING).decide("bingbot", "https://example.com/");
    /// assert_eq!((verdict.allowed, verdict.basis), (false, Basis::FullDisallow));
    /// ```
    pub fn fetched(outcome: Outcome) -> RobotsSource {
        let source = RobotsSource {
            given: Given::Fetched(outcome.clone()),
            readings: Default::default(),
        };
        // The reading the fetch made is kept, not made again.
        let parsed_as = match &outcome.rules {
            Rules::Conditional(copy) => Some(copy.robots().profile()),
            Rules::FullAllow | Rules::FullDisallow => None,
        };
        if let Some(profile) = parsed_as {
            source.readings.set(profile, Robots::fetched(outcome));
        }
        source
    }

    /// The bytes to read: those given, or the fetched body; `None` when the
    /// fetch outcome left no rules to read (full allow or full disallow).
    pub fn body(&self) -> Option<&[u8]> {
        match &self.given {
            Given::Bytes(bytes) => Some(bytes),
            Given::Fetched(outcome) => match &outcome.rules {
                Rules::Conditional(copy) => Some(copy.body()),
                Rules::FullAllow | Rules::FullDisallow => None,
            },
        }
    }

    /// How many bytes [`body`](Self::body) holds (0 when none).
    pub fn len(&self) -> usize {
        self.body().map_or(0, <[u8]>::len)
    }

    /// Whether there are no bytes to read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fetch outcome, when it was fetched.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.given {
            Given::Bytes(_) => None,
            Given::Fetched(outcome) => Some(outcome),
        }
    }

    /// It read under `profile`: given bytes by their rules alone, a fetched
    /// file under its fetch outcome. Each of [`Profile::ALL`] is read once
    /// and kept; another profile is read on every call.
    pub fn read(&self, profile: Profile) -> Cow<'_, Robots> {
        match self
            .readings
            .get_or_init(profile, || self.read_anew(profile))
        {
            Some(robots) => Cow::Borrowed(robots),
            None => Cow::Owned(self.read_anew(profile)),
        }
    }

    fn read_anew(&self, profile: Profile) -> Robots {
        match &self.given {
            Given::Bytes(bytes) => Robots::local(RobotsTxt::parse_with(bytes, profile)),
            Given::Fetched(outcome) => Robots::fetched(outcome.with_profile(profile)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_outside_the_list_is_read_each_time() {
        let mut strict = Profile::GOOGLE;
        strict.max_bytes = 8;
        let source = RobotsSource::from_bytes(b"User-agent: *\nDisallow: /\n".to_vec());
        let cut = source.read(strict);
        assert!(matches!(cut, Cow::Owned(_)));
        // Eight bytes hold no rule.
        assert!(cut.decide("bot", "/x").allowed);
        assert!(!source.read(Profile::GOOGLE).decide("bot", "/x").allowed);
    }

    #[test]
    fn bytes_are_kept_as_given() {
        let source = RobotsSource::from_bytes(b"\xEF\xBB\xBFUser-agent: *\n".to_vec());
        assert_eq!(source.body(), Some(&b"\xEF\xBB\xBFUser-agent: *\n"[..]));
        assert!(source.outcome().is_none());
        assert!(!source.is_empty());
    }
}
