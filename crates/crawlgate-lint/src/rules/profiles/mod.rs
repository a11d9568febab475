//! Profile rules (`R4xx`): where the google, rfc9309, legacy, bing and yandex readings disagree.

pub(crate) mod bing_differs;
pub(crate) mod comparison;
pub(crate) mod legacy_choice;
pub(crate) mod legacy_differs;
pub(crate) mod pattern_facts;
pub(crate) mod rfc9309_differs;
pub(crate) mod yandex_alike;
pub(crate) mod yandex_differs;
