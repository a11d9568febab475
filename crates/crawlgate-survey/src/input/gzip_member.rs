//! One gzip member (RFC 1952) read from a shared input, through an
//! inflater kept from member to member: a WARC file holds one member per
//! record, and a fresh decoder per member allocated and cleared its
//! inflater's state and window every time (an eighth of the cost of
//! reading a Common Crawl `robotstxt` WARC, whose members are a few KiB).
//!
//! The reader stops exactly at the member's end, so that the input is at
//! the next member; the deflate stream itself is `flate2`'s.

use std::io::{self, BufRead, Read};

use flate2::{Crc, Decompress, FlushDecompress, Status};

/// The longest name or comment a header may hold, without its NUL (as
/// `flate2`'s decoder has it): a WARC member's are a few bytes, and a
/// damaged header whose flags announce one must not read the rest of the
/// file looking for its end.
const MAX_HEADER_FIELD: usize = 65_535;

/// An inflater (raw deflate) and a checksum, kept between members.
pub(crate) struct Inflater {
    inflate: Decompress,
    crc: Crc,
}

impl Inflater {
    pub(crate) fn new() -> Inflater {
        Inflater {
            inflate: Decompress::new(false),
            crc: Crc::new(),
        }
    }
}

/// Where a member's reading stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    Header,
    Body,
    /// The deflate stream has ended: the trailer's bytes read so far. It is
    /// read at the next read, after the last bytes are handed on (so a
    /// damaged trailer leaves them sound).
    Trailer {
        buffer: [u8; 8],
        read: usize,
    },
    /// The member has ended, whole or not: a header or trailer that did not
    /// hold was said once, as `flate2`'s decoder says it.
    Done,
}

/// Reads the gzip member at the start of `input`, leaving `input` just past
/// its trailer once it has given its last byte (`Ok(0)`). A header, deflate
/// stream or trailer that does not hold is an error (`InvalidInput`), as is
/// an input that ends inside the member (`UnexpectedEof`).
pub(crate) struct GzipMember<'a, R> {
    input: R,
    inflater: &'a mut Inflater,
    part: Part,
}

impl<'a, R: BufRead> GzipMember<'a, R> {
    pub(crate) fn new(input: R, inflater: &'a mut Inflater) -> GzipMember<'a, R> {
        inflater.inflate.reset(false);
        inflater.crc.reset();
        GzipMember {
            input,
            inflater,
            part: Part::Header,
        }
    }

    /// Reads the header: the fixed ten bytes, then the optional extra
    /// field, name, comment and header checksum its flags announce.
    fn header(&mut self) -> io::Result<()> {
        const FHCRC: u8 = 0x02;
        const FEXTRA: u8 = 0x04;
        const FNAME: u8 = 0x08;
        const FCOMMENT: u8 = 0x10;
        const FRESERVED: u8 = 0xE0;
        let mut read = HeaderReader {
            input: &mut self.input,
            crc: Crc::new(),
        };
        let mut fixed = [0u8; 10];
        read.exact(&mut fixed)?;
        // The identification bytes, deflate, and no reserved flag (RFC 1952
        // asks for an error when one is set).
        if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & FRESERVED != 0 {
            return Err(bad_header());
        }
        let flags = fixed[3];
        if flags & FEXTRA != 0 {
            let mut length = [0u8; 2];
            read.exact(&mut length)?;
            read.skip(usize::from(u16::from_le_bytes(length)))?;
        }
        for field in [FNAME, FCOMMENT] {
            if flags & field != 0 {
                read.past_nul()?;
            }
        }
        if flags & FHCRC != 0 {
            let computed = read.crc.sum() as u16;
            let mut stored = [0u8; 2];
            read.exact(&mut stored)?;
            if u16::from_le_bytes(stored) != computed {
                return Err(mismatch());
            }
        }
        Ok(())
    }

    /// Checks the trailer: the checksum and length of what was inflated.
    fn check(&self, trailer: [u8; 8]) -> io::Result<()> {
        let [c0, c1, c2, c3, l0, l1, l2, l3] = trailer;
        let crc = &self.inflater.crc;
        if u32::from_le_bytes([c0, c1, c2, c3]) != crc.sum()
            || u32::from_le_bytes([l0, l1, l2, l3]) != crc.amount()
        {
            return Err(mismatch());
        }
        Ok(())
    }
}

impl<R: BufRead> Read for GzipMember<'_, R> {
    // The errors and what follows them are `flate2`'s decoder's: a header
    // or trailer that does not hold is said once, and reads then end; a
    // deflate stream that does not is said again at every read, and a
    // trailer cut short at every read until more of it comes.
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.part {
                Part::Header => {
                    if let Err(e) = self.header() {
                        self.part = Part::Done;
                        return Err(e);
                    }
                    self.part = Part::Body;
                }
                Part::Trailer {
                    mut buffer,
                    mut read,
                } => {
                    while read < buffer.len() {
                        let n = self.input.read(&mut buffer[read..])?;
                        if n == 0 {
                            return Err(cut_short_eof());
                        }
                        read += n;
                        self.part = Part::Trailer { buffer, read };
                    }
                    self.part = Part::Done;
                    self.check(buffer)?;
                }
                Part::Done => return Ok(0),
                Part::Body => {
                    if out.is_empty() {
                        return Ok(0);
                    }
                    let available = self.input.fill_buf()?;
                    if available.is_empty() {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "incomplete deflate stream",
                        ));
                    }
                    let inflate = &mut self.inflater.inflate;
                    let (before_in, before_out) = (inflate.total_in(), inflate.total_out());
                    let status = inflate.decompress(available, out, FlushDecompress::None);
                    let consumed = (inflate.total_in() - before_in) as usize;
                    let produced = (inflate.total_out() - before_out) as usize;
                    // What the inflater took is gone, whether or not it held.
                    self.input.consume(consumed);
                    let status = status.map_err(|_| corrupt_deflate())?;
                    self.inflater.crc.update(&out[..produced]);
                    if status == Status::StreamEnd {
                        self.part = Part::Trailer {
                            buffer: [0; 8],
                            read: 0,
                        };
                    } else if consumed == 0 && produced == 0 {
                        // Input offered and room to write, yet no progress.
                        return Err(corrupt_deflate());
                    }
                    if produced > 0 {
                        return Ok(produced);
                    }
                }
            }
        }
    }
}

/// Reads a header's bytes, summing them for the header checksum.
struct HeaderReader<'r, R> {
    input: &'r mut R,
    crc: Crc,
}

impl<R: BufRead> HeaderReader<'_, R> {
    fn exact(&mut self, into: &mut [u8]) -> io::Result<()> {
        self.input.read_exact(into).map_err(cut_short)?;
        self.crc.update(into);
        Ok(())
    }

    /// Passes over `count` bytes (an extra field: at most 64 KiB).
    fn skip(&mut self, mut count: usize) -> io::Result<()> {
        while count > 0 {
            let available = self.input.fill_buf()?;
            if available.is_empty() {
                return Err(cut_short_eof());
            }
            let n = available.len().min(count);
            self.crc.update(&available[..n]);
            self.input.consume(n);
            count -= n;
        }
        Ok(())
    }

    /// Passes over a field ending in NUL (a name or comment), NUL included,
    /// of at most [`MAX_HEADER_FIELD`] bytes; nothing of it is kept.
    fn past_nul(&mut self) -> io::Result<()> {
        let mut passed = 0;
        loop {
            let available = self.input.fill_buf()?;
            if available.is_empty() {
                return Err(cut_short_eof());
            }
            // The bytes the field may still take, its NUL included.
            let room = MAX_HEADER_FIELD + 1 - passed;
            let (n, found) = match memchr::memchr(0, available) {
                Some(at) if at < room => (at + 1, true),
                _ => (available.len().min(room), false),
            };
            self.crc.update(&available[..n]);
            self.input.consume(n);
            passed += n;
            if found {
                return Ok(());
            }
            if passed > MAX_HEADER_FIELD {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "gzip header field too long",
                ));
            }
        }
    }
}

fn bad_header() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "invalid gzip header")
}

fn corrupt_deflate() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream")
}

fn mismatch() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "corrupt gzip stream does not have a matching checksum",
    )
}

fn cut_short_eof() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "unexpected end of file")
}

/// `read_exact`'s own end-of-input error, said as the other ends are.
fn cut_short(error: io::Error) -> io::Error {
    if error.kind() == io::ErrorKind::UnexpectedEof {
        cut_short_eof()
    } else {
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compression, GzBuilder};
    use std::io::Write;

    /// A member of `data`, with the optional header fields of `shape`.
    fn member(data: &[u8], shape: usize) -> Vec<u8> {
        let mut builder = GzBuilder::new();
        if shape & 1 != 0 {
            builder = builder.filename("records.warc");
        }
        if shape & 2 != 0 {
            builder = builder.comment("a comment");
        }
        if shape & 4 != 0 {
            builder = builder.extra(vec![7; 300]);
        }
        let mut out = builder.write(Vec::new(), Compression::new((shape % 10) as u32));
        out.write_all(data).unwrap();
        let mut bytes = out.finish().unwrap();
        if shape & 8 != 0 {
            // A header checksum (flate2 writes none): set the flag and
            // insert the low half of the header's CRC-32 after the header.
            bytes[3] |= 0x02;
            let header_len = header_length(&bytes);
            let mut crc = Crc::new();
            crc.update(&bytes[..header_len]);
            let sum = (crc.sum() as u16).to_le_bytes();
            bytes.splice(header_len..header_len, sum);
        }
        bytes
    }

    /// The length of a member's header without its header checksum.
    fn header_length(bytes: &[u8]) -> usize {
        let flags = bytes[3];
        let mut at = 10;
        if flags & 0x04 != 0 {
            at += 2 + usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
        }
        for field in [0x08, 0x10] {
            if flags & field != 0 {
                at += bytes[at..].iter().position(|&b| b == 0).unwrap() + 1;
            }
        }
        at
    }

    /// Pseudo-random text, more or less compressible.
    fn data(seed: u64, len: usize) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b"WARC/1.0 robots Disallow: /\r\n"[(state % 29) as usize]
            })
            .collect()
    }

    /// Reads every member of `file` in turn, `step` bytes a read, through one
    /// inflater; each member's bytes, or the error that ended it.
    fn read_all(file: &[u8], step: usize) -> Vec<Result<Vec<u8>, io::Error>> {
        let mut input = io::BufReader::with_capacity(97, file);
        let mut inflater = Inflater::new();
        let mut found = Vec::new();
        while !input.fill_buf().unwrap().is_empty() {
            let mut member = GzipMember::new(&mut input, &mut inflater);
            let mut out = Vec::new();
            let mut chunk = vec![0; step];
            let result = loop {
                match member.read(&mut chunk) {
                    Ok(0) => break Ok(out),
                    Ok(n) => out.extend_from_slice(&chunk[..n]),
                    Err(e) => break Err(e),
                }
            };
            let failed = result.is_err();
            found.push(result);
            if failed {
                break;
            }
        }
        found
    }

    #[test]
    fn members_read_one_after_another_as_their_own_decoder_reads_them() {
        let mut file = Vec::new();
        let mut want = Vec::new();
        for shape in 0..16 {
            let text = data(shape as u64, [0, 1, 500, 70_000][shape % 4]);
            let bytes = member(&text, shape);
            // flate2's own decoder reads the member alike.
            let mut theirs = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_end(&mut theirs)
                .unwrap();
            assert_eq!(theirs, text, "shape {shape}");
            file.extend_from_slice(&bytes);
            want.push(text);
        }
        for step in [1, 7, 4096, 1 << 17] {
            let got: Vec<Vec<u8>> = read_all(&file, step)
                .into_iter()
                .map(|r| r.unwrap())
                .collect();
            assert_eq!(got, want, "step {step}");
        }
    }

    #[test]
    fn a_member_that_does_not_hold_is_an_error_and_the_ones_before_are_kept() {
        let good = member(&data(1, 3000), 1);
        let text = data(2, 3000);
        let bad_member = member(&text, 3);
        let len = bad_member.len();
        let mut checksum = bad_member.clone();
        checksum[len - 8] ^= 1;
        let mut length = bad_member.clone();
        length[len - 1] ^= 1;
        let mut header = bad_member.clone();
        header[2] = 9; // no deflate
        let mut reserved = bad_member.clone();
        reserved[3] |= 0x80;
        let mut header_sum = member(&text, 8);
        header_sum[10] ^= 1; // the header checksum
        let mut deflate = bad_member.clone();
        // Block type 3 does not exist.
        let body = header_length(&deflate);
        deflate[body] |= 0b110;
        let cut = bad_member[..len - 3].to_vec();
        let cut_in_name = bad_member[..14].to_vec();
        let cases: [(&str, Vec<u8>, io::ErrorKind); 8] = [
            ("checksum", checksum, io::ErrorKind::InvalidInput),
            ("length", length, io::ErrorKind::InvalidInput),
            ("header", header, io::ErrorKind::InvalidInput),
            ("reserved flag", reserved, io::ErrorKind::InvalidInput),
            ("header checksum", header_sum, io::ErrorKind::InvalidInput),
            ("deflate", deflate, io::ErrorKind::InvalidInput),
            ("cut short", cut, io::ErrorKind::UnexpectedEof),
            ("cut in its name", cut_in_name, io::ErrorKind::UnexpectedEof),
        ];
        for (what, damaged, kind) in cases {
            // flate2's decoder refuses it too.
            let mut sink = Vec::new();
            assert!(
                flate2::read::GzDecoder::new(&damaged[..])
                    .read_to_end(&mut sink)
                    .is_err(),
                "{what}"
            );
            let file = [good.clone(), damaged].concat();
            for step in [1, 4096] {
                let found = read_all(&file, step);
                assert_eq!(found.len(), 2, "{what}");
                assert_eq!(found[0].as_ref().unwrap(), &data(1, 3000), "{what}");
                let error = found[1].as_ref().unwrap_err();
                assert_eq!(error.kind(), kind, "{what}: {error}");
            }
        }
    }

    /// What a run of reads gives, `step` bytes a read, until the member has
    /// said all it will: each read's count or error, then the input left.
    fn reads(reader: &mut dyn Read, step: usize) -> Vec<Result<usize, (io::ErrorKind, String)>> {
        let mut buffer = vec![0; step];
        let mut said = Vec::new();
        let mut ended = 0;
        while ended < 3 && said.len() < 10_000 {
            let result = reader.read(&mut buffer);
            if !matches!(result, Ok(n) if n > 0) {
                ended += 1;
            }
            said.push(result.map_err(|e| (e.kind(), e.to_string())));
        }
        said
    }

    #[test]
    fn every_damage_of_a_byte_reads_as_flate2_reads_it() {
        // A member with a name, then a sound one: each byte of the first
        // changed three ways, read by both decoders a few bytes and many at
        // a time, gives the same bytes, errors, and input left for the next.
        let first = member(&data(3, 600), 1);
        let second = member(b"WARC/1.0 next", 0);
        for at in 0..first.len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut damaged = first.clone();
                damaged[at] ^= flip;
                let file = [damaged, second.clone()].concat();
                for step in [5, 1 << 16] {
                    let mut ours_input = &file[..];
                    let mut inflater = Inflater::new();
                    let ours = reads(&mut GzipMember::new(&mut ours_input, &mut inflater), step);
                    let mut theirs_input = &file[..];
                    let theirs = reads(
                        &mut flate2::bufread::GzDecoder::new(&mut theirs_input),
                        step,
                    );
                    assert_eq!(ours, theirs, "byte {at} ^ {flip:#x}, step {step}");
                    assert_eq!(
                        ours_input.len(),
                        theirs_input.len(),
                        "byte {at} ^ {flip:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_name_without_its_end_is_read_no_further_than_the_limit() {
        let mut damaged = member(b"WARC/1.0", 1);
        let name_at = 10;
        // The name's NUL and all that follows become more name.
        damaged.truncate(name_at);
        damaged.extend(std::iter::repeat_n(b'n', 3 * MAX_HEADER_FIELD));
        let mut input = &damaged[..];
        let mut inflater = Inflater::new();
        let error = GzipMember::new(&mut input, &mut inflater)
            .read(&mut [0; 64])
            .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
        let read = damaged.len() - input.len();
        assert_eq!(read, name_at + MAX_HEADER_FIELD + 1);
        // A name of the longest length is read.
        let mut longest = member(b"WARC/1.0", 0);
        longest[3] |= 0x08;
        let name = vec![b'n'; MAX_HEADER_FIELD];
        let tail = longest.split_off(10);
        let file = [longest, name, vec![0], tail].concat();
        assert_eq!(read_all(&file, 64)[0].as_ref().unwrap(), b"WARC/1.0");
        // Both decoders take the longest name and refuse one byte more.
        for extra in [0, 1] {
            let mut longer = member(b"WARC/1.0", 0);
            longer[3] |= 0x08;
            let tail = longer.split_off(10);
            let name = vec![b'n'; MAX_HEADER_FIELD + extra];
            let file = [longer, name, vec![0], tail].concat();
            let mut ours_input = &file[..];
            let mut inflater = Inflater::new();
            let ours = reads(&mut GzipMember::new(&mut ours_input, &mut inflater), 64);
            let mut theirs_input = &file[..];
            let theirs = reads(&mut flate2::bufread::GzDecoder::new(&mut theirs_input), 64);
            assert_eq!(ours, theirs, "a name {extra} past the limit");
            assert_eq!(ours_input.len(), theirs_input.len());
            assert_eq!(ours[0].is_ok(), extra == 0);
        }
    }

    #[test]
    fn the_input_is_left_at_the_next_member() {
        let first = member(b"WARC/1.0 first", 0);
        let file = [first.clone(), b"rest".to_vec()].concat();
        let mut input = &file[..];
        let mut inflater = Inflater::new();
        let mut text = String::new();
        GzipMember::new(&mut input, &mut inflater)
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "WARC/1.0 first");
        assert_eq!(input, b"rest");
    }
}
