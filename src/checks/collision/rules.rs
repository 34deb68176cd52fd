//! The collision family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const DESCRIPTION_COLLISION: Rule = Rule {
    id: "collision/description-collision",
    severity: Severity::Warning,
    short: "Description collision (tool selection hazard)",
    description: "Two tools have near-identical descriptions (character-trigram Dice similarity at or above the threshold) but accept different payloads: the types of their required parameters or their nesting depth differ. An agent that picks tools by description can confidently call the wrong one with the wrong arguments, and no error check can see it. Ordinary families with the same shape (list_users / list_projects) are not reported. Sentences shared by a third or more of the server's tools (and by at least three) are boilerplate and left out of the score; tools linked by flagged pairs are reported together, one finding per cluster. In a fleet run the same comparison runs across servers too (each server's own boilerplate discounted): only pairs of tools on different servers are kept, the tools named `server:tool`.",
    fix: "Make each description say what distinguishes the tool (the entity it acts on, the shape of its input), or merge the tools. Raise `checks.collision.threshold` only if the pair is genuinely distinguishable.",
};

pub const SUMMARY: Rule = Rule {
    id: "collision/summary",
    severity: Severity::Warning,
    short: "Description collision lint summary",
    description: "One result per run: how many collisions were found among how many tools, or that the lint was skipped because the server exposes more tools than `checks.collision.max_tools`.",
    fix: "Fix the individual collisions; if the lint was skipped, raise `checks.collision.max_tools`.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "collision/list-tools",
    severity: Severity::Error,
    short: "Tool listing for the collision lint",
    description: "The server's tools/list could not be read completely, so descriptions could not be compared.",
    fix: "Make tools/list answer every page with a valid `tools` array and a terminating `nextCursor`.",
};

pub const CROSS_SERVER_NAME: Rule = Rule {
    id: "collision/cross-server-name",
    severity: Severity::Warning,
    short: "Tool name exposed by several servers of a fleet",
    description: "In a fleet run (`servers:`, #15), one tool name is listed by two or more servers. An agent that loads them all sees one name for different tools: a client that does not qualify names by server may call either, and a model choosing by name cannot tell them apart. The location lists `server:tool` for each server, servers sorted by name (`api:search, docs:search`). Like every collision, it warns unless `checks.collision.fail` is true, and the lint's `enabled: false` turns it off.",
    fix: "Rename the tool on the servers you control (prefix it with what it acts on: `docs_search`), or load only one of the servers into the same agent.",
};

pub const RULES: &[Rule] = &[
    DESCRIPTION_COLLISION,
    SUMMARY,
    LIST_TOOLS,
    CROSS_SERVER_NAME,
];
