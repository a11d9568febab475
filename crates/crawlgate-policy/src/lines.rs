//! A file as physical lines (CR, LF or CR LF, as the parser counts them),
//! each kept with its end, so that a merge changes only the lines it
//! means to and keeps every other byte.

/// One physical line: its content and its end (`\n`, `\r\n`, `\r` or
/// nothing for a last line without one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) content: Vec<u8>,
    pub(crate) end: &'static [u8],
}

/// The lines of `bytes`, numbered from 1 as the parser numbers them.
pub(crate) fn split(bytes: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(Line {
                    content: bytes[start..i].to_vec(),
                    end: b"\n",
                });
                i += 1;
                start = i;
            }
            b'\r' => {
                let crlf = bytes.get(i + 1) == Some(&b'\n');
                lines.push(Line {
                    content: bytes[start..i].to_vec(),
                    end: if crlf { b"\r\n" } else { b"\r" },
                });
                i += if crlf { 2 } else { 1 };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        lines.push(Line {
            content: bytes[start..].to_vec(),
            end: b"",
        });
    }
    lines
}

/// The line end most lines of the file use (`\n` when none has one).
pub(crate) fn usual_end(lines: &[Line]) -> &'static [u8] {
    let crlf = lines.iter().filter(|l| l.end == b"\r\n").count();
    let cr = lines.iter().filter(|l| l.end == b"\r").count();
    let lf = lines.iter().filter(|l| l.end == b"\n").count();
    if crlf > lf && crlf >= cr {
        b"\r\n"
    } else if cr > lf && cr > crlf {
        b"\r"
    } else {
        b"\n"
    }
}

/// The lines joined back into bytes.
pub(crate) fn join(lines: &[Line]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.iter().map(|l| l.content.len() + 2).sum());
    for line in lines {
        out.extend_from_slice(&line.content);
        out.extend_from_slice(line.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_comes_back() {
        for text in [
            &b"a\nb\r\nc\rd"[..],
            b"",
            b"\n\n",
            b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\xff\r\n",
        ] {
            let lines = split(text);
            assert_eq!(join(&lines), text);
        }
        assert_eq!(split(b"a\nb\r\nc\rd").len(), 4);
        assert_eq!(usual_end(&split(b"a\r\nb\r\nc\n")), b"\r\n");
        assert_eq!(usual_end(&split(b"a")), b"\n");
    }
}
