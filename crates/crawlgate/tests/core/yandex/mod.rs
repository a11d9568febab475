//! Yandex's reading (`Profile::YANDEX`) held to Yandex's own parser: the
//! answers it gave on the real-world corpus, hand-written cases for each
//! of its behaviours, and generated files with its answers.

mod answers;
mod cases;
mod generated;
