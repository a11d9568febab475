//! Grouping rules (`R1xx`): which crawlers share which rules.

pub(crate) mod agent_not_product_token;
pub(crate) mod drops_star_rules;
pub(crate) mod empty_group;
pub(crate) mod merged_groups;
pub(crate) mod repeated_group;
pub(crate) mod yandex_split_group;
