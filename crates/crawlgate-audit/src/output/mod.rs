//! What an audit writes: the terminal summary ([`text`]), the rows as a
//! table ([`table`]: Parquet, CSV, JSON lines), the HTML report
//! ([`html`]) and deny lists ([`deny`]).

pub mod deny;
pub mod html;
pub mod table;
pub mod text;
