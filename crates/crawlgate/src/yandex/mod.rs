//! Yandex's reading ([`Profile::YANDEX`](crate::Profile::YANDEX)): what
//! Yandex's own parser (its public `robots_txt` library) does with a file,
//! in this crate's terms.
//!
//! The model builder (`parse/yandex.rs`) reads the lines Yandex's way and
//! drives a [`store::Store`], which follows, robot by robot, what Yandex's
//! parser stores: which groups each robot of its table takes (required
//! prefix, full name, the longest value winning), which rules it keeps,
//! and whether its limits were passed. The result, a [`table::RobotTable`],
//! is kept in the model; selection ([`table`]) and matching
//! ([`convert`], `pattern.rs`'s restarting globs) read it.

pub(crate) mod checks;
pub(crate) mod clean_param;
pub(crate) mod convert;
pub(crate) mod robots;
pub(crate) mod store;
pub(crate) mod table;
pub(crate) mod target;
