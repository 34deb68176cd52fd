//! The security family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUMMARY: Rule = Rule {
    id: "security/summary",
    severity: Severity::Error,
    short: "Security scan summary",
    description: "One result per run summarising the security scan: what was scanned (the tools and, where the server has them, its prompts, resources, resource templates and instructions) and how many issues the other security rules found. It fails whenever any security finding fails.",
    fix: "Fix the individual security findings listed with it.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "security/list-tools",
    severity: Severity::Error,
    short: "Tool listing for the security scan",
    description: "The server's tools/list could not be read completely (transport error, JSON-RPC error, or a pagination loop), so no tool could be scanned. A server that hides tools from a scanner hides them from review too.",
    fix: "Make tools/list answer every page: return a valid `tools` array, end pagination by omitting `nextCursor`, and never repeat a cursor.",
};

pub const LIST_SURFACE: Rule = Rule {
    id: "security/list-surface",
    severity: Severity::Error,
    short: "Prompt or resource listing for the security scan",
    description: "The server declares prompts or resources, but prompts/list, resources/list or resources/templates/list could not be read completely (transport error, JSON-RPC error, or a pagination loop), so what it lists could not be scanned. What a scanner cannot read, a reviewer cannot either; the compliance family reports the failing method too.",
    fix: "Make every list method of a declared capability answer every page with a valid result, ending pagination by omitting `nextCursor`; or stop declaring the capability.",
};

pub const INJECTION_PATTERN: Rule = Rule {
    id: "security/injection-pattern",
    severity: Severity::Error,
    short: "Prompt injection pattern detected",
    description: "A string that a model reads — of a tool (its description, a parameter's description at any depth, a title, an enum/default/const/examples value, an extension key, an output-schema field), of a prompt (its name, title, description, each argument's name, title and description), of a resource or resource template (name, title, description), or the server instructions (matched after undoing full-width letters, look-alike letters, leetspeak digits, invisible characters, HTML entities and base64/hex blobs) contains text aimed at the model rather than at the user: classic jailbreak phrases (\"ignore all previous instructions\") or tool-poisoning shapes — reading a credential file such as ~/.ssh/id_rsa and passing it through a side parameter, hiding an action from the user, rewriting another tool's arguments, or sending the conversation or secrets to an external address. Models read these texts as instructions (a server's instructions go into the system prompt), so a poisoned tool, prompt or resource can steer an agent without ever being used. The finding quotes the matched text; its location names the place (`tool.param`, `prompt:<name>`, `prompt:<name>.arg.<arg>`, `resource:<uri>`, `resource_template:<uriTemplate>`, `instructions`).",
    fix: "Rewrite the text so it only says what the tool, prompt or resource does and what its parameters mean (for instructions: how to use this server). Remove any instruction addressed to the model, any reference to files or data the tool does not need, and any demand to keep something from the user. If the text came from a dependency or a remote source, treat the server as compromised.",
};

pub const HIDDEN_UNICODE: Rule = Rule {
    id: "security/hidden-unicode",
    severity: Severity::Error,
    short: "Hidden unicode characters detected",
    description: "A string that a model reads — of a tool (name, title, description, a parameter's description, title, values or extension keys), of a prompt or its arguments, of a resource or resource template (the URI included), or the server instructions — contains characters a reviewer cannot see: zero-width characters, bidirectional overrides, look-alike spaces, Unicode Tag characters, which can spell out a whole hidden instruction (\"ASCII smuggling\"; the finding shows the decoded text), runs of variation selectors that carry bytes (\"emoji smuggling\", decoded likewise), Hangul filler letters, or padding of three or more bidi marks. Models read these characters while humans reviewing the server do not. Valid subdivision flags such as England's are exempt.",
    fix: "Remove the invisible characters from the text (for tag characters, the decoded payload shows what was hidden). Use ordinary spaces and plain text; if you need a regional flag, use a valid subdivision flag sequence.",
};

pub const SECRET_IN_SCHEMA: Rule = Rule {
    id: "security/secret-in-schema",
    severity: Severity::Error,
    short: "Schema solicits secrets",
    description: "A top-level input property (or a prompt argument, whose value goes straight into the prompt's messages) is named like a credential: the original list (api_key, password, secret, access_token, auth_token, private_key, credentials, token, …) or a name whose words say credential (auth, openai_api_key, client_secret, refresh_token, session_cookie, seed_phrase, …; those only when the property can hold text, so a boolean byApiKey is not one). The model will fill it, so secrets end up in prompts, transcripts and tool-call logs. A credential the tool exists to set is a warning, not a failure: the tool's name sets an account's or a resource's secret (atlas-create-db-user's password, create_webhook's token), or the name or the property's description says whose secret it is (trigger_pipeline's token, \"the secret of the upload\", a token the platform \"generates when\" a call comes in); so is a bare credential that picks one the server holds (\"credential to use\") and an optional one that overrides the server's configured credential (\"using the configured token\").",
    fix: "Take credentials from the server's own configuration (environment variables, a secrets manager, OAuth) instead of tool arguments, and remove the field from the input schema. For a tool that sets a credential (a warning), prefer letting the server generate it and return it once, or take it out of band.",
};

pub const ANNOTATION_MISMATCH: Rule = Rule {
    id: "security/annotation-mismatch",
    severity: Severity::Error,
    short: "Annotation behavior mismatch",
    description: "A behaviour hint contradicts what the tool says it does: readOnlyHint: true on a tool that changes state (deletes, writes, updates, creates, executes a command, installs, sends, puts, \"cannot be undone\", …); destructiveHint: false on one that deletes, destroys, drops, wipes or overwrites (checked only when readOnlyHint is not true, as MCP reads it); openWorldHint: false on one that fetches URLs, scrapes or searches the web; or a read-only claim (the hint, or \"read-only\" in the description) next to a parameter that switches writing on (write_mode). Only the tool's own action counts: its name, the leading verbs of its first sentence, and sentences whose subject is the tool; a negated verb (\"does not modify\"), a parameter, a filter, a quoted value or another tool's name does not. Clients use these hints to skip confirmation prompts and to judge what a call can reach, so a wrong hint lets a destructive or outward call run unreviewed. The message names the hint that is wrong.",
    fix: "Correct the hint the message names: readOnlyHint false for tools that modify anything, destructiveHint true (or omitted) for tools that delete or overwrite, openWorldHint true (or omitted) for tools that reach the web; remove a write switch from a read-only tool or drop the read-only claim. If the tool really does what the hint says, correct the description instead.",
};

pub const TOOL_SHADOWING: Rule = Rule {
    id: "security/tool-shadowing",
    severity: Severity::Error,
    short: "Instructions about other tools",
    description: "A tool's text (or a prompt's, a resource's, or the server instructions) tells the model how to use other tools: call another tool first with fixed arguments or a message to relay, redirect calls to itself or to a replacement with a false deprecation notice, prefer it over similarly named tools, or rewrite other tools' arguments and results. A tool that is never called can steer every other call this way (cross-tool shadowing). Instructions and prompts are there to say how to use the server's own tools: there, an order whose quoted words name one of the server's own tools or prompts is not reported. In a fleet run (#15) the same order shapes are matched against the other servers' tool names: a tool whose text orders the model to call, avoid, prefer itself over, or change the arguments of another server's tool by name is reported (location `server:tool`, the message naming the target and its server); a name its own server lists, a tool merely named without an order, and \"the X tool\" where X is a common word are not.",
    fix: "Describe only what this tool (prompt, resource) does; in instructions, speak only of this server's own tools. Remove every instruction about when or how to call other tools, and any claim that another tool is deprecated or unsafe. If the text came from a dependency or a remote source, treat the server as compromised.",
};

pub const COMMAND_EXECUTION: Rule = Rule {
    id: "security/command-execution",
    severity: Severity::Error,
    short: "Tells the model to run commands",
    description: "A tool's text (or any other string of the surface: a prompt, a resource, the server instructions) tells the model to run a shell command (a download piped into an interpreter, `rm -rf`, `chmod -R`, `sudo`, a line appended to a shell profile, a required command prefix). An agent with a shell tool will run it on the user's machine.",
    fix: "Remove the command from the text. A server that needs something run on the user's machine must say so to the user, not to the model.",
};

pub const CONFUSABLE_NAME: Rule = Rule {
    id: "security/confusable-name",
    severity: Severity::Error,
    short: "Tool, prompt or parameter name uses look-alike characters",
    description: "A tool or prompt name contains characters from another script that look like Latin letters (Cyrillic `а` in `reаd_data`), or accented letters whose skeleton is ASCII, so it reads like a different, trusted tool's or prompt's name to a human while being a distinct name to the client. A parameter name spelled so (`tоken` with a Cyrillic `о`) reads as the honest parameter while being another one. The finding shows the name it imitates.",
    fix: "Use plain ASCII letters, digits, `_` and `-` in tool, prompt and parameter names.",
};

pub const LEARNED_POISONING: Rule = Rule {
    id: "security/learned-poisoning",
    severity: Severity::Warning,
    short: "Tool reads like published tool-poisoning attacks",
    description: "No rule of the family failed the tool, but a linear model built into mcpward, trained offline on the published poisoned tool definitions and the real servers' tool lists of `tests/corpus/`, scores every string of it (name, description, property names, schema values; word pairs and letter groups) above the highest score of any real tool it was trained on. It catches rewordings no fixed rule names, but it also reads short workflow notes (\"IMPORTANT: Always call this tool first\") as attacks, so it warns and never fails the run on its own; tools of fewer than 12 words and tools whose description names another tool of the listing are left to the rules. The message gives the score, the threshold and the words that weighed most; nothing leaves the machine.",
    fix: "Read the tool's texts for instructions aimed at the model (orders to call or avoid other tools, to read or send data, to hide something from the user) and remove them. If the tool is honest, accept the finding with a `suppress:` entry (rule `security/learned-poisoning`, the tool's name as location, your reason) and report the text so the model can be retrained on it.",
};

pub const TOXIC_FLOW: Rule = Rule {
    id: "security/toxic-flow",
    severity: Severity::Info,
    short: "Untrusted input and an outward sink on different servers",
    description: "In a fleet run (`servers:`, #15), from the tools' annotations alone: one server exposes a tool that reads untrusted content (`openWorldHint: true` and `readOnlyHint: true`: fetch, search, read a page) and another server exposes an outward sink (`openWorldHint: true` and not read-only: send, post, upload). An agent that loads both can be steered by what it reads with the first (an injected web page, issue or e-mail) into sending data out with the second, and neither server alone shows the risk. One finding per reading server and sink server pair (location `reader -> sink`), naming up to five tools on each side; at most 100 such findings per run, then one that counts the rest. A reader and a sink on the same server are not reported. A hint, not an attack: `checks.toxic_flow` sets what it reports (`off`, `info` — a pass at info, the default —, `warn` or `fail`); `checks.security: false` turns it off.",
    fix: "Do not load an untrusted-content reader and an outward sink into the same agent unattended: require confirmation for the sink's calls, split the servers across agents, or set `checks.toxic_flow: off` once the pair is reviewed. Wrong annotations (a sender marked read-only, a local tool marked open-world) are a finding of their own: correct them.",
};

pub const RULES: &[Rule] = &[
    SUMMARY,
    LIST_TOOLS,
    LIST_SURFACE,
    INJECTION_PATTERN,
    HIDDEN_UNICODE,
    SECRET_IN_SCHEMA,
    ANNOTATION_MISMATCH,
    TOOL_SHADOWING,
    COMMAND_EXECUTION,
    CONFUSABLE_NAME,
    LEARNED_POISONING,
    TOXIC_FLOW,
];
