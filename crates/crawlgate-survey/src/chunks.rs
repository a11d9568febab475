//! Reading a survey's inputs into chunks: on one thread, in order, at most
//! [`CHUNK_SITES`] sites or [`CHUNK_BYTES`] of bodies per chunk, each
//! saying where reading could start again after it. A survey run
//! ([`run`](crate::run()), which checkpoints those positions) and the
//! Arrow batches of [`batch`](crate::batch) both read through it.

use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use crate::capture::Payload;
use crate::input::{Flow, Input, Item, Mark, Resume};

/// Sites per chunk.
pub const CHUNK_SITES: usize = 512;

/// Body bytes per chunk: a chunk is closed once it holds this much.
pub const CHUNK_BYTES: usize = 16 << 20;

/// Where the survey is in its inputs: reading continues at input `input`
/// from `resume`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The input (index among the survey's inputs).
    pub input: usize,
    /// Where in it.
    pub resume: Resume,
}

/// One item read, with where it came from (a run's sort key; Arrow
/// batches take the item alone).
#[cfg_attr(not(feature = "files"), allow(dead_code))]
pub(crate) struct Entry {
    pub(crate) input: usize,
    pub(crate) ordinal: u64,
    pub(crate) item: Item,
}

/// A chunk of items, the input bytes read when it closed, and where
/// reading could start again right after it.
pub(crate) struct Chunk {
    pub(crate) entries: Vec<Entry>,
    pub(crate) bytes: u64,
    pub(crate) resume_after: Option<Position>,
}

fn body_bytes(item: &Item) -> usize {
    match item {
        Item::Capture(capture) => match &capture.payload {
            Payload::File { body, .. } => body.len(),
            Payload::Http { response, .. } => response.body.len(),
            Payload::Fetched(report) => report.rules().heap_size(),
            Payload::Error(why) => why.len(),
        },
        Item::Skipped(_) => 0,
    }
}

/// Reads every input from `start` on into chunks; stops when the receiver
/// is gone.
pub(crate) fn read_inputs(inputs: &[Input], start: Position, sender: &mpsc::SyncSender<Chunk>) {
    let new_chunk = || Chunk {
        entries: Vec::with_capacity(CHUNK_SITES),
        bytes: 0,
        resume_after: None,
    };
    let mut chunk = new_chunk();
    let mut chunk_bytes = 0;
    let mut before = 0u64;
    for (index, input) in inputs.iter().enumerate().skip(start.input) {
        let from = if index == start.input {
            start.resume
        } else {
            Resume::default()
        };
        let mut ordinal = from.items;
        let mut read = 0u64;
        let mut stopped = false;
        input.read(from, &mut |item, mark: Mark| {
            read = mark.bytes;
            chunk_bytes += body_bytes(&item);
            chunk.entries.push(Entry {
                input: index,
                ordinal,
                item,
            });
            ordinal += 1;
            chunk.resume_after = mark.restart.map(|offset| Position {
                input: index,
                resume: Resume {
                    offset,
                    items: ordinal,
                },
            });
            if chunk.entries.len() >= CHUNK_SITES || chunk_bytes >= CHUNK_BYTES {
                chunk.bytes = before + read;
                let full = std::mem::replace(&mut chunk, new_chunk());
                chunk_bytes = 0;
                if sender.send(full).is_err() {
                    stopped = true;
                    return Flow::Stop;
                }
            }
            Flow::Continue
        });
        if stopped {
            return;
        }
        before += input.size().bytes.unwrap_or(read);
        // The input is read to its end: the next one starts afresh.
        chunk.resume_after = Some(Position {
            input: index + 1,
            resume: Resume::default(),
        });
    }
    chunk.bytes = before;
    let _ = sender.send(chunk);
}
