//! What a command's run came to. `main.rs` turns it into the process's
//! exit code, so the numbers live in one place.

/// How a run that answered ended (an error that stops a run is an
/// `anyhow::Error` instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything asked about is allowed, every expectation holds, or the
    /// command succeeded.
    Success,
    /// Something is disallowed, an expectation or a check failed, or a
    /// fetch gave full disallow.
    Failure,
    /// Some of the input could not be used (a batch's malformed lines),
    /// though the rest was answered.
    InputError,
}

impl Status {
    /// [`Status::Success`] when everything asked about is allowed (or
    /// held), [`Status::Failure`] otherwise.
    pub fn all_good(all_good: bool) -> Status {
        if all_good {
            Status::Success
        } else {
            Status::Failure
        }
    }
}
