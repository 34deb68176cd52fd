//! The drift classifier (drift.md §5–§7 with DECISIONS #22–#27): compares two captured
//! surfaces and returns one `Change` per difference, in the order of drift.md §5.3. Pure.

use super::canonical::{canonicalize_description, canonicalize_schema, MAX_DEPTH};
use super::json::{canonical_key, js_number, same, same_opt, to_compact, to_compact_opt};
use super::lockfile::{Lockfile, ToolEntry};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// The eight drift classes (public contract: the names never change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DriftClass {
    ToolRemoved,
    ToolAdded,
    DescriptionChanged,
    BreakingSchemaChange,
    NonbreakingSchemaChange,
    AnnotationChanged,
    BreakingOutputShapeChange,
    NonbreakingOutputShapeChange,
}

impl DriftClass {
    pub const ALL: [DriftClass; 8] = [
        DriftClass::ToolRemoved,
        DriftClass::ToolAdded,
        DriftClass::DescriptionChanged,
        DriftClass::BreakingSchemaChange,
        DriftClass::NonbreakingSchemaChange,
        DriftClass::AnnotationChanged,
        DriftClass::BreakingOutputShapeChange,
        DriftClass::NonbreakingOutputShapeChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DriftClass::ToolRemoved => "tool_removed",
            DriftClass::ToolAdded => "tool_added",
            DriftClass::DescriptionChanged => "description_changed",
            DriftClass::BreakingSchemaChange => "breaking_schema_change",
            DriftClass::NonbreakingSchemaChange => "nonbreaking_schema_change",
            DriftClass::AnnotationChanged => "annotation_changed",
            DriftClass::BreakingOutputShapeChange => "breaking_output_shape_change",
            DriftClass::NonbreakingOutputShapeChange => "nonbreaking_output_shape_change",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Default severity (drift.md §3.1): blast radius, not breakage.
    pub fn default_level(self) -> Level {
        match self {
            DriftClass::DescriptionChanged | DriftClass::AnnotationChanged => Level::High,
            DriftClass::BreakingSchemaChange | DriftClass::BreakingOutputShapeChange => {
                Level::Medium
            }
            _ => Level::Low,
        }
    }
}

/// Drift severity (blast radius). Ordered low < medium < high.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Low,
    Medium,
    High,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::High => "high",
            Level::Medium => "medium",
            Level::Low => "low",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "high" => Some(Level::High),
            "medium" => Some(Level::Medium),
            "low" => Some(Level::Low),
            _ => None,
        }
    }
}

/// One difference between baseline and current.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub class: DriftClass,
    pub tool: String,
    pub message: String,
    pub previous: Option<Value>,
    pub current: Option<Value>,
}

/// Input schemas break when they accept less; output schemas break a consumer when they
/// may return more (DECISIONS #27).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}

/// Keywords that never change what a schema accepts.
const ANNOTATION_KEYWORDS: [&str; 8] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords whose change is judged conservatively as breaking (DECISIONS #25), after the
/// descriptions inside them were compared (DECISIONS #22).
const OPAQUE_SCHEMA_KEYWORDS: [&str; 9] = [
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
];

/// Work limit for one schema pair: `$ref` expansion can make a small document walk like a
/// huge one.
const NODE_BUDGET: usize = 200_000;

fn accept_anything(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(m)) => m.keys().all(|k| ANNOTATION_KEYWORDS.contains(&k.as_str())),
        _ => false,
    }
}

fn join(path: &str, seg: &str) -> String {
    if path.is_empty() {
        seg.to_string()
    } else {
        format!("{path}.{seg}")
    }
}

fn subject(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("property \"{path}\" ")
    }
}

fn description_of(v: Option<&Value>) -> &str {
    v.and_then(|s| s.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Decodes a local JSON-pointer fragment (`#/$defs/a~1b`, percent-escapes allowed).
fn local_pointer(reference: &str) -> Option<String> {
    let frag = reference.strip_prefix('#')?;
    if !(frag.is_empty() || frag.starts_with('/')) {
        return None; // a named anchor: not resolved
    }
    let bytes = frag.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

struct Walker<'a> {
    tool: &'a str,
    label: &'a str,
    dir: Direction,
    base_root: &'a Value,
    curr_root: &'a Value,
    out: Vec<Change>,
    visits: usize,
    exhausted: bool,
}

/// Which side of the comparison a `$ref` belongs to.
#[derive(Clone, Copy)]
enum Side {
    Base,
    Curr,
}

impl<'a> Walker<'a> {
    fn emit(&mut self, class: DriftClass, what: String, prev: Option<Value>, curr: Option<Value>) {
        self.out.push(Change {
            class,
            tool: self.tool.to_string(),
            message: format!("Tool \"{}\" {} {what}", self.tool, self.label),
            previous: prev,
            current: curr,
        });
    }

    /// Accepts fewer values than before.
    fn narrowing(&self) -> DriftClass {
        match self.dir {
            Direction::Input => DriftClass::BreakingSchemaChange,
            Direction::Output => DriftClass::NonbreakingSchemaChange,
        }
    }

    /// Accepts more values than before.
    fn widening(&self) -> DriftClass {
        match self.dir {
            Direction::Input => DriftClass::NonbreakingSchemaChange,
            Direction::Output => DriftClass::BreakingSchemaChange,
        }
    }

    /// Counts one visited node; false once the budget is spent (reported once).
    fn tick(&mut self) -> bool {
        if self.exhausted {
            return false;
        }
        self.visits += 1;
        if self.visits > NODE_BUDGET {
            self.exhausted = true;
            self.emit(
                DriftClass::BreakingSchemaChange,
                format!(
                    "is too large to compare completely (stopped after {NODE_BUDGET} nodes; classified as breaking)"
                ),
                None,
                None,
            );
            return false;
        }
        true
    }

    /// Resolves a local `$ref` (siblings override the target's members). A reference
    /// already being expanded on this path is left as is, so cycles terminate.
    fn deref(&self, v: &Value, side: Side, stack: &mut Vec<String>) -> Value {
        let root = match side {
            Side::Base => self.base_root,
            Side::Curr => self.curr_root,
        };
        let mut node = v.clone();
        for _ in 0..MAX_DEPTH {
            let Some(reference) = node.get("$ref").and_then(Value::as_str).map(str::to_string)
            else {
                break;
            };
            if stack.contains(&reference) {
                break;
            }
            let Some(target) = local_pointer(&reference)
                .and_then(|p| root.pointer(&p))
                .and_then(Value::as_object)
            else {
                break;
            };
            stack.push(reference);
            let mut merged: Map<String, Value> = target.clone();
            if let Some(own) = node.as_object() {
                for (k, val) in own {
                    if k != "$ref" {
                        merged.insert(k.clone(), val.clone());
                    }
                }
            }
            node = Value::Object(merged);
        }
        node
    }

    fn check_description(&mut self, b: Option<&Value>, c: Option<&Value>, path: &str) {
        let before = description_of(b);
        let after = description_of(c);
        if canonicalize_description(before) == canonicalize_description(after) {
            return;
        }
        let what = if before.is_empty() {
            "description added"
        } else if after.is_empty() {
            "description removed"
        } else {
            "description changed"
        };
        let raw = |v: Option<&Value>| v.and_then(|s| s.get("description")).cloned();
        self.emit(
            DriftClass::DescriptionChanged,
            format!("{}{what} (possible rug-pull)", subject(path)),
            raw(b),
            raw(c),
        );
    }

    /// drift.md §6.2 `compareNode`; both sides are (resolved) objects.
    fn compare_node(
        &mut self,
        base: &Value,
        curr: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH || !self.tick() {
            return;
        }
        let (lb, lc) = (sb.len(), sc.len());
        let base = self.deref(base, Side::Base, sb);
        let curr = self.deref(curr, Side::Curr, sc);
        // DECISIONS #22: the root schema's own description counts too.
        self.check_description(Some(&base), Some(&curr), path);
        self.compare_type(&base, &curr, path);
        self.compare_enum(&base, &curr, path);
        self.compare_bounds(&base, &curr, path);
        self.compare_opaque(&base, &curr, path);
        self.compare_unique(&base, &curr, path);
        self.compare_keywords(&base, &curr, path, depth, sb, sc);
        self.compare_additional(&base, &curr, path, depth, sb, sc);
        self.compare_properties(&base, &curr, path, depth, sb, sc);
        self.compare_items(&base, &curr, path, depth, sb, sc);
        sb.truncate(lb);
        sc.truncate(lc);
    }

    fn compare_type(&mut self, b: &Value, c: &Value, path: &str) {
        let (tb, tc) = (b.get("type"), c.get("type"));
        if same_opt(tb, tc) {
            return;
        }
        let set = |t: Option<&Value>| -> BTreeSet<String> {
            match t {
                Some(Value::Array(a)) => a.iter().map(canonical_key).collect(),
                Some(v @ Value::String(s)) if !s.is_empty() => BTreeSet::from([canonical_key(v)]),
                _ => BTreeSet::new(),
            }
        };
        let (sb, sc) = (set(tb), set(tc));
        // DECISIONS #23: a type array is a set; reordering it is no change.
        if sb == sc {
            return;
        }
        let (class, verb) = if sb.is_empty() {
            (self.narrowing(), "narrowed")
        } else if sc.is_empty() || (sb.is_subset(&sc) && sc.len() > sb.len()) {
            (self.widening(), "widened")
        } else if sc.is_subset(&sb) && sc.len() < sb.len() {
            (self.narrowing(), "narrowed")
        } else {
            (DriftClass::BreakingSchemaChange, "changed")
        };
        self.emit(
            class,
            format!(
                "{}type {verb} from {} to {}",
                subject(path),
                to_compact_opt(tb),
                to_compact_opt(tc)
            ),
            tb.cloned(),
            tc.cloned(),
        );
    }

    fn compare_enum(&mut self, b: &Value, c: &Value, path: &str) {
        let eb = b.get("enum").and_then(Value::as_array);
        let ec = c.get("enum").and_then(Value::as_array);
        let s = subject(path);
        match (eb, ec) {
            (Some(xb), Some(xc)) => {
                let kb: BTreeSet<String> = xb.iter().map(canonical_key).collect();
                let kc: BTreeSet<String> = xc.iter().map(canonical_key).collect();
                let removed: Vec<Value> = xb
                    .iter()
                    .filter(|v| !kc.contains(&canonical_key(v)))
                    .cloned()
                    .collect();
                let added: Vec<Value> = xc
                    .iter()
                    .filter(|v| !kb.contains(&canonical_key(v)))
                    .cloned()
                    .collect();
                let (pb, pc) = (Value::Array(xb.clone()), Value::Array(xc.clone()));
                if !removed.is_empty() {
                    self.emit(
                        self.narrowing(),
                        format!(
                            "{s}enum tightened: removed {}",
                            to_compact(&Value::Array(removed))
                        ),
                        Some(pb.clone()),
                        Some(pc.clone()),
                    );
                }
                if !added.is_empty() {
                    self.emit(
                        self.widening(),
                        format!(
                            "{s}enum loosened: added {}",
                            to_compact(&Value::Array(added))
                        ),
                        Some(pb),
                        Some(pc),
                    );
                }
            }
            (None, Some(xc)) => {
                let v = Value::Array(xc.clone());
                self.emit(
                    self.narrowing(),
                    format!("{s}enum constraint added {}", to_compact(&v)),
                    None,
                    Some(v),
                );
            }
            (Some(xb), None) => self.emit(
                self.widening(),
                format!("{s}enum constraint removed"),
                Some(Value::Array(xb.clone())),
                None,
            ),
            (None, None) => {}
        }
    }

    fn compare_bounds(&mut self, b: &Value, c: &Value, path: &str) {
        const MINS: [&str; 5] = [
            "minimum",
            "exclusiveMinimum",
            "minLength",
            "minItems",
            "minProperties",
        ];
        const MAXS: [&str; 5] = [
            "maximum",
            "exclusiveMaximum",
            "maxLength",
            "maxItems",
            "maxProperties",
        ];
        let s = subject(path);
        for (key, is_min) in MINS
            .iter()
            .map(|k| (*k, true))
            .chain(MAXS.iter().map(|k| (*k, false)))
        {
            let (vb, vc) = (b.get(key), c.get(key));
            if same_opt(vb, vc) {
                continue;
            }
            match (vb, vc) {
                (None, Some(x)) => self.emit(
                    self.narrowing(),
                    format!("{s}{key} added ({})", to_compact(x)),
                    None,
                    Some(x.clone()),
                ),
                (Some(x), None) => self.emit(
                    self.widening(),
                    format!("{s}{key} removed (was {})", to_compact(x)),
                    Some(x.clone()),
                    None,
                ),
                (Some(Value::Number(nb)), Some(Value::Number(nc))) => {
                    let (fb, fc) = (nb.as_f64().unwrap_or(0.0), nc.as_f64().unwrap_or(0.0));
                    let tightened = if is_min { fc > fb } else { fc < fb };
                    let verb = if fc > fb { "raised" } else { "lowered" };
                    let class = if tightened {
                        self.narrowing()
                    } else {
                        self.widening()
                    };
                    self.emit(
                        class,
                        format!(
                            "{s}{key} {verb} from {} to {}",
                            js_number(fb),
                            js_number(fc)
                        ),
                        vb.cloned(),
                        vc.cloned(),
                    );
                }
                (Some(x), Some(y)) => self.emit(
                    DriftClass::BreakingSchemaChange,
                    format!(
                        "{s}{key} changed from {} to {} (compatibility cannot be determined)",
                        to_compact(x),
                        to_compact(y)
                    ),
                    Some(x.clone()),
                    Some(y.clone()),
                ),
                (None, None) => {}
            }
        }
    }

    fn compare_opaque(&mut self, b: &Value, c: &Value, path: &str) {
        let s = subject(path);
        for key in ["pattern", "format", "const", "multipleOf"] {
            let (vb, vc) = (b.get(key), c.get(key));
            if same_opt(vb, vc) {
                continue;
            }
            match (vb, vc) {
                (Some(x), None) => self.emit(
                    self.widening(),
                    format!("{s}{key} removed (was {})", to_compact(x)),
                    Some(x.clone()),
                    None,
                ),
                (None, Some(y)) => self.emit(
                    self.narrowing(),
                    format!("{s}{key} added ({})", to_compact(y)),
                    None,
                    Some(y.clone()),
                ),
                (Some(x), Some(y)) => self.emit(
                    DriftClass::BreakingSchemaChange,
                    format!(
                        "{s}{key} changed from {} to {} (compatibility cannot be proven)",
                        to_compact(x),
                        to_compact(y)
                    ),
                    Some(x.clone()),
                    Some(y.clone()),
                ),
                (None, None) => {}
            }
        }
    }

    fn compare_unique(&mut self, b: &Value, c: &Value, path: &str) {
        let on = |v: &Value| v.get("uniqueItems") == Some(&Value::Bool(true));
        let s = subject(path);
        match (on(b), on(c)) {
            (false, true) => self.emit(
                self.narrowing(),
                format!("{s}uniqueItems turned on"),
                b.get("uniqueItems").cloned(),
                c.get("uniqueItems").cloned(),
            ),
            (true, false) => self.emit(
                self.widening(),
                format!("{s}uniqueItems turned off"),
                b.get("uniqueItems").cloned(),
                c.get("uniqueItems").cloned(),
            ),
            _ => {}
        }
    }

    /// Combinators and the other keywords whose compatibility we do not compute: compare
    /// the descriptions inside them, then a conservative breaking change if anything else
    /// in them differs. An unresolved `$ref` is compared the same way.
    fn compare_keywords(
        &mut self,
        b: &Value,
        c: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        let s = subject(path);
        for key in OPAQUE_SCHEMA_KEYWORDS.iter().copied().chain(["$ref"]) {
            let (vb, vc) = (b.get(key), c.get(key));
            if same_opt(vb, vc) {
                continue;
            }
            self.describe_keyword(key, vb, vc, path, depth, sb, sc);
            let equal = match (vb, vc) {
                (Some(x), Some(y)) => self.eq_keyword(key, x, y, depth, sb, sc),
                _ => false,
            };
            if !equal {
                self.emit(
                    DriftClass::BreakingSchemaChange,
                    format!("{s}{key} changed (compatibility cannot be determined; classified as breaking)"),
                    vb.cloned(),
                    vc.cloned(),
                );
            }
        }
    }

    /// Description changes inside a keyword's subschemas, at positions both sides have.
    #[allow(clippy::too_many_arguments)]
    fn describe_keyword(
        &mut self,
        key: &str,
        vb: Option<&Value>,
        vc: Option<&Value>,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        let (Some(vb), Some(vc)) = (vb, vc) else {
            return;
        };
        match (vb, vc) {
            (Value::Array(xb), Value::Array(xc)) => {
                for (i, (x, y)) in xb.iter().zip(xc).enumerate() {
                    self.describe(x, y, &join(path, &format!("{key}[{i}]")), depth + 1, sb, sc);
                }
            }
            (Value::Object(mb), Value::Object(mc))
                if key == "patternProperties" || key == "dependentSchemas" =>
            {
                for (name, x) in mb {
                    if let Some(y) = mc.get(name) {
                        let p = join(&join(path, key), name);
                        self.describe(x, y, &p, depth + 1, sb, sc);
                    }
                }
            }
            _ if key != "$ref" => self.describe(vb, vc, &join(path, key), depth + 1, sb, sc),
            _ => {}
        }
    }

    /// Compares only descriptions, recursively, in two subschemas (DECISIONS #22).
    fn describe(
        &mut self,
        b: &Value,
        c: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH || !self.tick() {
            return;
        }
        let (lb, lc) = (sb.len(), sc.len());
        let b = self.deref(b, Side::Base, sb);
        let c = self.deref(c, Side::Curr, sc);
        self.check_description(Some(&b), Some(&c), path);
        if let (Value::Object(mb), Value::Object(mc)) = (&b, &c) {
            if let (Some(Value::Object(pb)), Some(Value::Object(pc))) =
                (mb.get("properties"), mc.get("properties"))
            {
                for (name, x) in pb {
                    if let Some(y) = pc.get(name) {
                        self.describe(x, y, &join(path, name), depth + 1, sb, sc);
                    }
                }
            }
            for key in ["items", "prefixItems"] {
                match (mb.get(key), mc.get(key)) {
                    (Some(Value::Array(xb)), Some(Value::Array(xc))) => {
                        for (i, (x, y)) in xb.iter().zip(xc).enumerate() {
                            self.describe(x, y, &format!("{path}[{i}]"), depth + 1, sb, sc);
                        }
                    }
                    (Some(x), Some(y)) if !x.is_array() && !y.is_array() => {
                        self.describe(x, y, &format!("{path}[]"), depth + 1, sb, sc)
                    }
                    _ => {}
                }
            }
            if let (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) = (
                mb.get("additionalProperties"),
                mc.get("additionalProperties"),
            ) {
                self.describe(x, y, &format!("{path}{{}}"), depth + 1, sb, sc);
            }
            for key in OPAQUE_SCHEMA_KEYWORDS {
                self.describe_keyword(key, mb.get(key), mc.get(key), path, depth, sb, sc);
            }
        }
        sb.truncate(lb);
        sc.truncate(lc);
    }

    fn eq_keyword(
        &mut self,
        key: &str,
        x: &Value,
        y: &Value,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) -> bool {
        match key {
            "$ref" => same(x, y),
            "patternProperties" | "dependentSchemas" | "properties" => match (x, y) {
                (Value::Object(mx), Value::Object(my)) => {
                    mx.len() == my.len()
                        && mx.iter().all(|(k, v)| {
                            my.get(k)
                                .is_some_and(|w| self.eq_schema(v, w, depth + 1, sb, sc))
                        })
                }
                _ => same(x, y),
            },
            "type" => {
                let set = |t: &Value| -> BTreeSet<String> {
                    match t {
                        Value::Array(a) => a.iter().map(canonical_key).collect(),
                        other => BTreeSet::from([canonical_key(other)]),
                    }
                };
                set(x) == set(y)
            }
            "anyOf"
            | "oneOf"
            | "allOf"
            | "prefixItems"
            | "items"
            | "not"
            | "if"
            | "then"
            | "else"
            | "additionalProperties"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties" => match (x, y) {
                (Value::Array(ax), Value::Array(ay)) => {
                    ax.len() == ay.len()
                        && ax
                            .iter()
                            .zip(ay)
                            .all(|(p, q)| self.eq_schema(p, q, depth + 1, sb, sc))
                }
                _ => self.eq_schema(x, y, depth + 1, sb, sc),
            },
            _ => same(x, y),
        }
    }

    /// Schema equality that ignores annotation keywords and sees through local `$ref`s.
    fn eq_schema(
        &mut self,
        a: &Value,
        b: &Value,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) -> bool {
        if depth > MAX_DEPTH || self.exhausted || self.visits > NODE_BUDGET {
            return same(a, b);
        }
        self.visits += 1;
        if !(a.is_object() && b.is_object()) {
            return same(a, b);
        }
        let (lb, lc) = (sb.len(), sc.len());
        let ra = self.deref(a, Side::Base, sb);
        let rb = self.deref(b, Side::Curr, sc);
        let ignored =
            |k: &str| ANNOTATION_KEYWORDS.contains(&k) || k == "$defs" || k == "definitions";
        let (ma, mb) = (ra.as_object(), rb.as_object());
        let result = match (ma, mb) {
            (Some(ma), Some(mb)) => {
                let keys: BTreeSet<&String> =
                    ma.keys().chain(mb.keys()).filter(|k| !ignored(k)).collect();
                keys.into_iter().all(|k| match (ma.get(k), mb.get(k)) {
                    (Some(x), Some(y)) => self.eq_keyword(k, x, y, depth, sb, sc),
                    _ => false,
                })
            }
            _ => same(&ra, &rb),
        };
        sb.truncate(lb);
        sc.truncate(lc);
        result
    }

    fn compare_additional(
        &mut self,
        b: &Value,
        c: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        let (ab, ac) = (b.get("additionalProperties"), c.get("additionalProperties"));
        let ap_path = format!("{path}{{}}");
        if let (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) = (ab, ac) {
            self.compare_node(x, y, &ap_path, depth + 1, sb, sc);
            return;
        }
        // (rank, label); DECISIONS #24: an annotation-only object such as `{}` is open.
        let class = |v: Option<&Value>| match v {
            Some(Value::Bool(false)) => (0, "closed"),
            Some(Value::Object(_)) if !accept_anything(v) => (1, "schema"),
            _ => (2, "open"),
        };
        if ab.is_some_and(Value::is_object) || ac.is_some_and(Value::is_object) {
            self.check_description(ab, ac, &ap_path);
        }
        let ((rb, lb), (rc, lc)) = (class(ab), class(ac));
        if rb == rc {
            return;
        }
        let cls = if rc < rb {
            self.narrowing()
        } else {
            self.widening()
        };
        self.emit(
            cls,
            format!("{}additionalProperties {lb} \u{2192} {lc}", subject(path)),
            ab.cloned(),
            ac.cloned(),
        );
    }

    fn compare_properties(
        &mut self,
        b: &Value,
        c: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        let empty = Map::new();
        let pb = b
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let pc = c
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let req = |v: &Value| -> Vec<String> {
            v.get("required")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (rb, rc) = (req(b), req(c));
        let mut names: Vec<String> = Vec::new();
        for n in pb.keys().chain(pc.keys()).chain(rb.iter()).chain(rc.iter()) {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        for name in names {
            let child = join(path, &name);
            let (xb, xc) = (pb.get(&name), pc.get(&name));
            match (xb, xc) {
                (Some(x), None) => {
                    self.emit(
                        DriftClass::BreakingSchemaChange,
                        format!("property \"{child}\" was removed"),
                        Some(x.clone()),
                        None,
                    );
                    continue;
                }
                (None, Some(y)) => {
                    let required = rc.contains(&name);
                    let (class, what) = match (required, self.dir) {
                        (true, Direction::Input) => (DriftClass::BreakingSchemaChange, "required"),
                        (true, Direction::Output) => {
                            (DriftClass::NonbreakingSchemaChange, "required")
                        }
                        (false, _) => (DriftClass::NonbreakingSchemaChange, "optional"),
                    };
                    self.emit(
                        class,
                        format!("added {what} property \"{child}\""),
                        None,
                        Some(y.clone()),
                    );
                    continue;
                }
                _ => {}
            }
            let (was, now) = (rb.contains(&name), rc.contains(&name));
            if !was && now {
                self.emit(
                    self.narrowing(),
                    format!("property \"{child}\" became required"),
                    Some(json!({"required": false})),
                    Some(json!({"required": true})),
                );
            } else if was && !now {
                self.emit(
                    self.widening(),
                    format!("property \"{child}\" became optional"),
                    Some(json!({"required": true})),
                    Some(json!({"required": false})),
                );
            }
            if let (Some(x), Some(y)) = (xb, xc) {
                self.compare_sub(Some(x), Some(y), &child, depth, sb, sc);
            }
        }
    }

    fn compare_items(
        &mut self,
        b: &Value,
        c: &Value,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        enum Form<'v> {
            Absent,
            List(&'v Value),
            Tuple(&'v [Value], Value),
        }
        // DECISIONS #25: `prefixItems` (+ `items` as the rest) is a tuple like draft-7
        // `items: [...]` (+ `additionalItems`).
        fn form(v: &Value) -> Form<'_> {
            if let Some(Value::Array(p)) = v.get("prefixItems") {
                return Form::Tuple(p, v.get("items").cloned().unwrap_or(Value::Bool(true)));
            }
            match v.get("items") {
                None => Form::Absent,
                Some(Value::Array(t)) => Form::Tuple(
                    t,
                    v.get("additionalItems")
                        .cloned()
                        .unwrap_or(Value::Bool(true)),
                ),
                Some(x) => Form::List(x),
            }
        }
        let list_path = format!("{path}[]");
        match (form(b), form(c)) {
            (Form::Absent, Form::Absent) => {}
            (Form::Tuple(tb, fb), Form::Tuple(tc, fc)) => {
                for i in 0..tb.len().max(tc.len()) {
                    let before = tb.get(i).unwrap_or(&fb);
                    let after = tc.get(i).unwrap_or(&fc);
                    self.compare_sub(
                        Some(before),
                        Some(after),
                        &format!("{path}[{i}]"),
                        depth,
                        sb,
                        sc,
                    );
                }
                if !same(&fb, &fc) {
                    self.compare_sub(Some(&fb), Some(&fc), &list_path, depth, sb, sc);
                }
            }
            (Form::List(x), Form::List(y)) => {
                self.compare_sub(Some(x), Some(y), &list_path, depth, sb, sc)
            }
            (Form::Absent, cf) => {
                // DECISIONS #24: `items: true` / `{}` adds no constraint.
                if let Form::List(y) = cf {
                    if accept_anything(Some(y)) {
                        self.check_description(None, Some(y), &list_path);
                        return;
                    }
                }
                self.emit(
                    self.narrowing(),
                    format!("property \"{list_path}\" items constraint added"),
                    None,
                    c.get("items").or_else(|| c.get("prefixItems")).cloned(),
                );
            }
            (bf, Form::Absent) => {
                if let Form::List(x) = bf {
                    if accept_anything(Some(x)) {
                        self.check_description(Some(x), None, &list_path);
                        return;
                    }
                }
                self.emit(
                    self.widening(),
                    format!("property \"{list_path}\" items constraint removed"),
                    b.get("items").or_else(|| b.get("prefixItems")).cloned(),
                    None,
                );
            }
            _ => {
                let raw = |v: &Value| json!({"prefixItems": v.get("prefixItems"), "items": v.get("items")});
                if !same(&raw(b), &raw(c)) {
                    self.emit(
                        DriftClass::BreakingSchemaChange,
                        format!("property \"{list_path}\" items changed between list and tuple form (compatibility cannot be determined)"),
                        b.get("prefixItems").or_else(|| b.get("items")).cloned(),
                        c.get("prefixItems").or_else(|| c.get("items")).cloned(),
                    );
                }
            }
        }
    }

    /// drift.md §6.13 `compareSub`: subschemas that may be booleans.
    fn compare_sub(
        &mut self,
        b: Option<&Value>,
        c: Option<&Value>,
        path: &str,
        depth: usize,
        sb: &mut Vec<String>,
        sc: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let (lb, lc) = (sb.len(), sc.len());
        let rb = b.map(|v| self.deref(v, Side::Base, sb));
        let rc = c.map(|v| self.deref(v, Side::Curr, sc));
        sb.truncate(lb);
        sc.truncate(lc);
        if let (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) = (b, c) {
            self.compare_node(x, y, path, depth + 1, sb, sc);
            return;
        }
        if same_opt(rb.as_ref(), rc.as_ref()) {
            return;
        }
        self.check_description(rb.as_ref(), rc.as_ref(), path);
        let rank = |v: Option<&Value>| match v {
            Some(Value::Bool(false)) => 0,
            _ if accept_anything(v) => 2,
            _ => 1,
        };
        let label = |r: i32| match r {
            0 => "false (rejects everything)",
            2 => "accept-anything",
            _ => "a schema",
        };
        let (kb, kc) = (rank(rb.as_ref()), rank(rc.as_ref()));
        if kb == kc {
            return;
        }
        let class = if kc < kb {
            self.narrowing()
        } else {
            self.widening()
        };
        self.emit(
            class,
            format!(
                "property \"{path}\" changed from {} to {}",
                label(kb),
                label(kc)
            ),
            b.cloned(),
            c.cloned(),
        );
    }
}

/// Compares one schema of one tool (drift.md §6). `label` is `inputSchema` or
/// `outputSchema`. Both sides are re-canonicalized first; a schema too deep for that is
/// compared raw (the walk is depth-limited anyway).
pub fn diff_schema(
    tool: &str,
    label: &str,
    dir: Direction,
    base: &Value,
    curr: &Value,
) -> Vec<Change> {
    let b = canonicalize_schema(base).unwrap_or_else(|_| base.clone());
    let c = canonicalize_schema(curr).unwrap_or_else(|_| curr.clone());
    let mut w = Walker {
        tool,
        label,
        dir,
        base_root: &b,
        curr_root: &c,
        out: Vec::new(),
        visits: 0,
        exhausted: false,
    };
    match (&b, &c) {
        (Value::Null, Value::Null) => {}
        (Value::Null, _) => w.emit(
            DriftClass::NonbreakingSchemaChange,
            "was added".into(),
            Some(Value::Null),
            Some(c.clone()),
        ),
        (_, Value::Null) => w.emit(
            DriftClass::BreakingSchemaChange,
            "was removed".into(),
            Some(b.clone()),
            Some(Value::Null),
        ),
        (Value::Object(_), Value::Object(_)) => {
            w.compare_node(&b, &c, "", 0, &mut Vec::new(), &mut Vec::new())
        }
        _ if same(&b, &c) => {}
        _ => w.emit(
            DriftClass::BreakingSchemaChange,
            format!(
                "changed from {} to {} (compatibility cannot be determined)",
                to_compact(&b),
                to_compact(&c)
            ),
            Some(b.clone()),
            Some(c.clone()),
        ),
    }
    w.out
}

/// Annotation rules with MCP default values (DECISIONS #26).
pub fn diff_annotations(tool: &str, base: &ToolEntry, curr: &ToolEntry) -> Vec<Change> {
    let eff = |e: &ToolEntry, key: &str, default: bool| {
        e.annotations
            .as_ref()
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    let rules: [(&str, bool, bool, &str); 3] = [
        ("readOnlyHint", true, false, "tool may now mutate state"),
        ("destructiveHint", false, true, "tool became destructive"),
        (
            "openWorldHint",
            false,
            true,
            "tool may now reach external systems",
        ),
    ];
    let defaults = |key: &str| match key {
        "readOnlyHint" => false,
        _ => true,
    };
    let mut out = Vec::new();
    for (key, from, to, why) in rules {
        if eff(base, key, defaults(key)) == from && eff(curr, key, defaults(key)) == to {
            out.push(Change {
                class: DriftClass::AnnotationChanged,
                tool: tool.to_string(),
                message: format!("Tool \"{tool}\" {key} changed from {from} to {to} ({why})"),
                previous: Some(json!({ key: from })),
                current: Some(json!({ key: to })),
            });
        }
    }
    out
}

/// The whole surface diff, in the order of drift.md §5.3.
pub fn diff_surfaces(base: &Lockfile, curr: &Lockfile) -> Vec<Change> {
    let mut out = Vec::new();
    for (name, entry) in &base.tools {
        if curr.tool(name).is_none() {
            out.push(Change {
                class: DriftClass::ToolRemoved,
                tool: name.clone(),
                message: format!("Tool \"{name}\" was removed"),
                previous: Some(entry.to_value()),
                current: None,
            });
        }
    }
    for (name, entry) in &curr.tools {
        if base.tool(name).is_none() {
            out.push(Change {
                class: DriftClass::ToolAdded,
                tool: name.clone(),
                message: format!("Tool \"{name}\" was added"),
                previous: None,
                current: Some(entry.to_value()),
            });
        }
    }
    for (name, b) in &base.tools {
        let Some(c) = curr.tool(name) else { continue };
        if b.description_hash != c.description_hash {
            let shown = |e: &ToolEntry| {
                Value::String(
                    e.description
                        .clone()
                        .unwrap_or_else(|| e.description_hash.clone()),
                )
            };
            out.push(Change {
                class: DriftClass::DescriptionChanged,
                tool: name.clone(),
                message: format!("Tool \"{name}\" description changed (possible rug-pull)"),
                previous: Some(shown(b)),
                current: Some(shown(c)),
            });
        }
        out.extend(diff_schema(
            name,
            "inputSchema",
            Direction::Input,
            &b.input_schema,
            &c.input_schema,
        ));
        out.extend(diff_schema(
            name,
            "outputSchema",
            Direction::Output,
            &b.output_schema,
            &c.output_schema,
        ));
        if let (Some(sb), Some(sc)) = (&b.output_shape, &c.output_shape) {
            out.extend(super::shape::diff_shapes(name, sb, sc));
        }
        out.extend(diff_annotations(name, b, c));
    }
    out
}
