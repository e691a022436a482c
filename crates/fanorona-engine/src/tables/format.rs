//! The tables as bytes: a small versioned format, so a program can load
//! them instead of solving them again.
//!
//! ```text
//! magic     8 bytes  "FNRTABLE"
//! version   1 byte   1
//! stones    1 byte   the most stones, 2..=5
//! then for each number of stones n from 2 up:
//!   count   8 bytes  little-endian: the number of entries of n stones
//!   entries count bytes, one per position, in index order
//! check     8 bytes  little-endian FNV-1a of every byte before it
//! ```
//!
//! The counts must be those of the layout and every entry a valid one, so
//! a file never makes the reader allocate more than the tables it names;
//! the check catches a changed entry that is still a valid one.

use std::io::{self, Read, Write};

use super::{
    index::{Layout, MAX_TABLE_STONES},
    table::Table,
    value::Value,
    Tables,
};

const MAGIC: [u8; 8] = *b"FNRTABLE";
const VERSION: u8 = 1;
/// Entries go through a buffer of this size rather than one copy of a
/// whole table (37 MB for 5 stones).
const CHUNK: usize = 1 << 16;

/// FNV-1a over everything written or read.
#[derive(Debug)]
struct Check(u64);

impl Check {
    fn new() -> Check {
        Check(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_owned())
}

/// Reads exactly `buf.len()` bytes; a short read is invalid data.
fn read_exact(r: &mut impl Read, buf: &mut [u8], check: &mut Check) -> io::Result<()> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => invalid("truncated endgame tables"),
        _ => e,
    })?;
    check.add(buf);
    Ok(())
}

fn write_all(w: &mut impl Write, bytes: &[u8], check: &mut Check) -> io::Result<()> {
    check.add(bytes);
    w.write_all(bytes)
}

impl Tables {
    /// Writes the tables in a small versioned binary format (one byte per
    /// position, 2.3 MB for 4 stones).
    ///
    /// # Errors
    ///
    /// Any error of the writer.
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        let mut check = Check::new();
        write_all(w, &MAGIC, &mut check)?;
        write_all(w, &[VERSION, self.max_stones() as u8], &mut check)?;
        let mut buf = Vec::with_capacity(CHUNK);
        for table in &self.tables {
            let values = table.values();
            write_all(w, &(values.len() as u64).to_le_bytes(), &mut check)?;
            for chunk in values.chunks(CHUNK) {
                buf.clear();
                buf.extend(chunk.iter().map(|v| v.byte()));
                write_all(w, &buf, &mut check)?;
            }
        }
        w.write_all(&check.0.to_le_bytes())
    }

    /// Reads tables written by [`Tables::write_to`].
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidData`] when the data is not such tables:
    /// another format or version, truncated, or changed; and any error of
    /// the reader.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_engine::Tables;
    ///
    /// let tables = Tables::build(3);
    /// let mut bytes = Vec::new();
    /// tables.write_to(&mut bytes)?;
    /// assert_eq!(Tables::read_from(&mut bytes.as_slice())?, tables);
    /// let err = Tables::read_from(&mut &bytes[..100]).unwrap_err();
    /// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn read_from(r: &mut impl Read) -> io::Result<Tables> {
        let mut check = Check::new();
        let mut head = [0u8; 10];
        read_exact(r, &mut head, &mut check)?;
        if head[..8] != MAGIC {
            return Err(invalid("not endgame tables"));
        }
        if head[8] != VERSION {
            return Err(invalid("unknown endgame table version"));
        }
        let max = usize::from(head[9]);
        if !(2..=MAX_TABLE_STONES).contains(&max) {
            return Err(invalid(
                "endgame tables for an unsupported number of stones",
            ));
        }
        let mut tables = Vec::with_capacity(max - 1);
        for stones in 2..=max {
            tables.push(read_table(r, Layout::new(stones), &mut check)?);
        }
        let sum = check.0;
        let mut stored = [0u8; 8];
        read_exact(r, &mut stored, &mut check)?;
        if u64::from_le_bytes(stored) != sum {
            return Err(invalid("endgame tables fail their check"));
        }
        Ok(Tables { tables })
    }
}

fn read_table(r: &mut impl Read, layout: Layout, check: &mut Check) -> io::Result<Table> {
    let mut count = [0u8; 8];
    read_exact(r, &mut count, check)?;
    if u64::from_le_bytes(count) != layout.size() as u64 {
        return Err(invalid("an endgame table has the wrong size"));
    }
    let mut values = Vec::with_capacity(layout.size());
    let mut buf = vec![0u8; CHUNK];
    while values.len() < layout.size() {
        let n = CHUNK.min(layout.size() - values.len());
        read_exact(r, &mut buf[..n], check)?;
        for &b in &buf[..n] {
            values.push(Value::from_byte(b).ok_or_else(|| invalid("invalid endgame table entry"))?);
        }
    }
    Table::new(layout, values).ok_or_else(|| invalid("an endgame table has the wrong size"))
}
