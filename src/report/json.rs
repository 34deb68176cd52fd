//! JSON reporter (reporters.md §3) and the `JSON.stringify`-compatible serialisation the
//! other reporters share.
//!
//! serde_json's pretty printer already matches `JSON.stringify(v, null, 2)`: two-space
//! indent, `"key": value`, empty containers as `[]`/`{}`, and the same string escapes
//! (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other C0 controls as lower-case `\u00xx`;
//! DEL, U+2028/U+2029 and non-ASCII written literally, `/` not escaped). Lone surrogates
//! cannot occur in Rust strings. The one difference is numbers: a float is written the way
//! ECMAScript's `Number::toString` writes it (`1.0` → `1`, `1e21` → `1e+21`), via
//! [`JsFormatter`].

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use super::types::{RenderContext, Reporter};
use crate::model::{FleetReport, Report};

pub struct JsonReporter;

impl Reporter for JsonReporter {
    fn render(&self, report: &Report, _ctx: &RenderContext) -> String {
        to_pretty(report)
    }

    /// The fleet document itself (`schemas/fleet-report.v1.schema.json`).
    fn render_fleet(&self, fleet: &FleetReport, _ctx: &RenderContext) -> String {
        to_pretty(fleet)
    }
}

/// `JSON.stringify(value, null, 2)`.
pub fn to_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, JsFormatter(PrettyFormatter::with_indent(b"  ")))
}

/// `JSON.stringify(value)`.
pub fn to_compact<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, JsFormatter(CompactFormatter))
}

fn write_with<T: Serialize + ?Sized, F: Formatter>(value: &T, f: F) -> String {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, f);
    // Serialising our own types and `Value`s into memory cannot fail.
    if value.serialize(&mut ser).is_err() {
        return "null".to_string();
    }
    String::from_utf8(buf).unwrap_or_default()
}

/// Delegates layout to the wrapped formatter and writes floats like JavaScript.
pub struct JsFormatter<F>(pub F);

impl<F: Formatter> Formatter for JsFormatter<F> {
    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        w.write_all(js_number(f64::from(v)).as_bytes())
    }
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        w.write_all(js_number(v).as_bytes())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// ECMAScript number formatting, shared with the lockfile and the golden files.
pub use crate::surface::json::js_number;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_like_javascript() {
        let cases = [
            (1.0, "1"),
            (-2.0, "-2"),
            (0.1, "0.1"),
            (123.456, "123.456"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (1.25e-7, "1.25e-7"),
            (-0.0, "0"),
            (f64::NAN, "null"),
        ];
        for (v, want) in cases {
            assert_eq!(js_number(v), want, "{v}");
        }
        assert_eq!(
            to_compact(&json!({"a": [1.0, 2.5, 3]})),
            r#"{"a":[1,2.5,3]}"#
        );
    }

    #[test]
    fn layout_and_escapes_match_json_stringify() {
        let v = json!({
            "empty_a": [],
            "empty_o": {},
            "s": "q\"b\\s/\u{8}\u{c}\n\r\t\u{1}\u{1f}\u{7f}\u{2028}\u{2029}é😀",
            "n": null,
            "nested": {"x": [true, {}]}
        });
        let want = concat!(
            "{\n",
            "  \"empty_a\": [],\n",
            "  \"empty_o\": {},\n",
            "  \"s\": \"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}\u{2028}\u{2029}é😀\",\n",
            "  \"n\": null,\n",
            "  \"nested\": {\n",
            "    \"x\": [\n",
            "      true,\n",
            "      {}\n",
            "    ]\n",
            "  }\n",
            "}"
        );
        assert_eq!(to_pretty(&v), want);
    }
}
