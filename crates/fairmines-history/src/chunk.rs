//! Chunks of raw rows (the unit handed to a worker), the pool that reuses their buffers, and parsing a raw
//! row into the row model.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::row::{CsvHeader, Names, Partial, Record, Row, RowError, RowRef, parse_json_line, parse_value};

/// The longest JSON line read whole; a longer one is reported as malformed and skipped without being held.
pub const MAX_LINE_BYTES: usize = 1 << 20;

pub(crate) enum RawData {
    /// A JSON line: where it lies in the chunk's `text`.
    Json(std::ops::Range<usize>),
    /// A CSV record: where its fields' bytes start in the chunk's `text`, and where its field ends lie in
    /// the chunk's `ends`.
    Csv {
        start: usize,
        fields: std::ops::Range<usize>,
    },
    Value(Value),
    /// The row at this index of the chunk's [`RowSource`].
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    Indexed(usize),
    TooLong(u64),
}

/// Rows that are read by index where they lie (an Arrow slice's columns), rather than from a chunk's text.
pub(crate) trait RowSource: Send + Sync {
    /// The row at `index`; on failure also its round id where that much could be read.
    fn row(&self, index: usize) -> Result<Row, (RowError, Partial)>;
}

/// How the rows of a chunk are laid out: the names of the fields (JSON), the CSV header, or a row source.
#[derive(Clone)]
pub(crate) enum Layout {
    Json(Arc<Names>),
    Csv(Arc<CsvHeader>),
    /// Only the Arrow adapter gives rows this way.
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    Source(Arc<dyn RowSource>),
}

pub(crate) struct RawRow {
    pub(crate) line: u64,
    pub(crate) data: RawData,
    /// The last row of an input that does not end in a newline.
    pub(crate) unterminated: bool,
}

pub(crate) struct Chunk {
    pub(crate) rows: Vec<RawRow>,
    /// The JSON lines of the rows, or their CSV fields, one after another (one buffer per chunk, not one
    /// per row).
    pub(crate) text: Vec<u8>,
    /// Where each CSV field ends in `text`.
    pub(crate) ends: Vec<usize>,
    pub(crate) layout: Layout,
    pub(crate) blank_lines: u64,
    /// Input bytes read up to the end of this chunk.
    pub(crate) bytes: u64,
    /// Where the buffers go when the chunk is dropped, for the reader's next chunks.
    spares: Option<Spares>,
}

impl Chunk {
    pub(crate) fn new(layout: Layout) -> Self {
        Chunk { rows: Vec::new(), text: Vec::new(), ends: Vec::new(), layout, blank_lines: 0, bytes: 0, spares: None }
    }
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let Some(spares) = self.spares.take() {
            spares.put(Buffers {
                rows: std::mem::take(&mut self.rows),
                text: std::mem::take(&mut self.text),
                ends: std::mem::take(&mut self.ends),
            });
        }
    }
}

/// A chunk's buffers, emptied, with the capacity they had.
struct Buffers {
    rows: Vec<RawRow>,
    text: Vec<u8>,
    ends: Vec<usize>,
}

/// The buffers of the chunks a reader has handed over, given back when the chunks are dropped (wherever
/// that is), so that its next chunks reuse them: no allocation per chunk, no growing buffers copied, and
/// no fresh memory for the kernel to map in (a run on two threads made ten times the page faults of one
/// without this, as memory freed by one thread went back to the system and was mapped in again).
#[derive(Clone, Default)]
pub(crate) struct Spares(Arc<Mutex<Vec<Buffers>>>);

impl Spares {
    /// The chunks a pipeline holds at once on up to a dozen threads (about five per thread); more are freed.
    const KEEP: usize = 64;
    /// A buffer that has grown larger (a chunk of very long lines) is freed rather than kept.
    const LARGEST: usize = 16 << 20;

    /// An empty chunk in `layout`, with the buffers of a dropped one when there is one.
    pub(crate) fn chunk(&self, layout: Layout) -> Chunk {
        let spare = self.0.lock().ok().and_then(|mut spares| spares.pop());
        let mut chunk = Chunk::new(layout);
        if let Some(Buffers { rows, text, ends }) = spare {
            (chunk.rows, chunk.text, chunk.ends) = (rows, text, ends);
        }
        chunk.spares = Some(self.clone());
        chunk
    }

    fn put(&self, mut buffers: Buffers) {
        if buffers.text.capacity() > Self::LARGEST {
            return;
        }
        buffers.rows.clear();
        buffers.text.clear();
        buffers.ends.clear();
        if let Ok(mut spares) = self.0.lock()
            && spares.len() < Self::KEEP
        {
            spares.push(buffers);
        }
    }
}

impl RawRow {
    /// The row (borrowing from the chunk where it can), or why it cannot be read together with its round
    /// id where that much could be read.
    pub(crate) fn parse<'a>(&'a self, chunk: &'a Chunk) -> Result<RowRef<'a>, (RowError, Partial)> {
        let result = match (&self.data, &chunk.layout) {
            (RawData::Json(at), Layout::Json(names)) => parse_json_line(&chunk.text[at.clone()], names),
            (RawData::Value(value), Layout::Json(names)) => parse_value(value, names).map(RowRef::from),
            (RawData::Csv { start, fields }, Layout::Csv(header)) => {
                let record = Record { text: &chunk.text, start: *start, ends: &chunk.ends[fields.clone()] };
                header.parse(record).map_err(|e| (e, header.partial(record)))
            }
            (RawData::Indexed(index), Layout::Source(source)) => source.row(*index).map(RowRef::from),
            (RawData::TooLong(bytes), _) => Err((
                RowError {
                    field: None,
                    message: format!("row: the line has {bytes} bytes, more than the {MAX_LINE_BYTES} read whole"),
                },
                Partial::default(),
            )),
            _ => {
                Err((RowError { field: None, message: "row: a row read in another layout".into() }, Partial::default()))
            }
        };
        result.map_err(|(mut e, id)| {
            if self.unterminated {
                e.message.push_str(" (the last line has no newline: the input looks truncated)");
            }
            (e, id)
        })
    }
}
