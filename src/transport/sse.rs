//! A small incremental Server-Sent Events parser (WHATWG HTML "event stream" rules):
//! CR, LF and CRLF line ends, `data` lines joined by LF, comments, `id` and `retry`.

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Event {
    pub event: Option<String>,
    pub data: String,
    pub id: Option<String>,
}

/// A line or an event's data beyond the parser's `max` is dropped (and `oversized` set): a
/// hostile stream cannot make us buffer without bound.
const DEFAULT_MAX: usize = 16 * 1024 * 1024;

pub struct Parser {
    max: usize,
    /// Set when a line or an event's data passed `max` and was dropped; the reader takes it.
    pub oversized: bool,
    /// The current event's data was cut: the event is dropped at its end.
    data_cut: bool,
    buf: Vec<u8>,
    data: Option<String>,
    event: Option<String>,
    /// The last event id (persists across events, as the spec's "last event ID buffer").
    pub last_id: Option<String>,
    /// A `retry:` value in milliseconds, if the server sent one.
    pub retry_ms: Option<u64>,
    skip_lf: bool,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new(DEFAULT_MAX)
    }
}

impl Parser {
    pub fn new(max: usize) -> Self {
        Parser {
            max,
            oversized: false,
            data_cut: false,
            buf: Vec::new(),
            data: None,
            event: None,
            last_id: None,
            retry_ms: None,
            skip_lf: false,
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.skip_lf {
                self.skip_lf = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' | b'\n' => {
                    self.skip_lf = b == b'\r';
                    let line = std::mem::take(&mut self.buf);
                    if let Some(ev) = self.line(&line) {
                        out.push(ev);
                    }
                }
                _ if self.buf.len() < self.max => self.buf.push(b),
                _ => {
                    if !self.data_cut {
                        self.oversized = true;
                    }
                    self.data_cut = true;
                }
            }
        }
        out
    }

    fn line(&mut self, line: &[u8]) -> Option<Event> {
        if line.is_empty() {
            let cut = std::mem::take(&mut self.data_cut);
            let data = self.data.take()?;
            let event = self.event.take();
            if cut {
                return None;
            }
            return Some(Event {
                event,
                data,
                id: self.last_id.clone(),
            });
        }
        if line[0] == b':' {
            return None;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.find(':') {
            Some(i) => {
                let v = &text[i + 1..];
                (&text[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (&text[..], ""),
        };
        match field {
            "data" if self.data_cut => {}
            "data" => match &mut self.data {
                Some(d) if d.len() + value.len() >= self.max => {
                    self.oversized = true;
                    self.data_cut = true;
                }
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok();
            }
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &str) -> (Vec<Event>, Parser) {
        let mut p = Parser::default();
        let evs = p.feed(input.as_bytes());
        (evs, p)
    }

    #[test]
    fn spec_examples() {
        // "data: YHOO / data: +2 / data: 10" is one event with LF-joined data.
        let (e, _) = all("data: YHOO\ndata: +2\ndata: 10\n\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].data, "YHOO\n+2\n10");
        // Comments are ignored; id persists; a block without data dispatches nothing.
        let (e, p) = all(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n");
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].data, "first event");
        assert_eq!(e[0].id.as_deref(), Some("1"));
        assert_eq!(e[1].data, "second event");
        assert_eq!(e[1].id.as_deref(), Some(""));
        assert_eq!(e[2].data, " third event");
        assert_eq!(p.last_id.as_deref(), Some(""));
    }

    #[test]
    fn line_endings_split_across_chunks_and_retry() {
        let mut p = Parser::default();
        let mut e = p.feed(b"event: message\r");
        e.extend(p.feed(b"\ndata: {\"a\":1}\r\n\r\nretry: 250\n"));
        e.extend(p.feed(b"retry: x\ndata: z\r\r"));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].event.as_deref(), Some("message"));
        assert_eq!(e[0].data, "{\"a\":1}");
        assert_eq!(e[1].event, None);
        assert_eq!(p.retry_ms, Some(250));
        // An unterminated final event is not dispatched.
        assert!(p.feed(b"data: tail").is_empty());
    }

    #[test]
    fn empty_data_lines() {
        let (e, _) = all("data\ndata\n\n");
        assert_eq!(e[0].data, "\n");
    }
}
