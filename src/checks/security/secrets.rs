//! `security/secret-in-schema`: input properties named like credentials (security.md §6, #13).
//!
//! Top-level properties only, as the original (no published attack in the corpus nests a
//! credential, and the nested ones on real servers are the connection settings of a
//! resource the tool creates: docs/decisions.md). A property fails when its name is on the
//! original's anchored list ([`patterns::SECRET_NAMES`]) or, beyond it, when its words name
//! a credential (`auth`, `openai_api_key`, `client_secret`, `refresh_token`,
//! `session_cookie`, `seed_phrase`, …) and it can hold text (a boolean `byApiKey` cannot).
//!
//! A credential the tool exists to set is a warning, not a failure: the tool's name sets an
//! account's or a resource's secret (`atlas-create-db-user` takes `password`,
//! `create_webhook` its `token`), or the name or the property's description says whose
//! secret it is (`trigger_pipeline`'s `token`, "the secret of the upload").

use super::walk::identifier_parts;
use super::{patterns, rules};
use crate::model::Finding;
use serde_json::Value;

pub(super) fn secrets(
    schema: Option<&Value>,
    name: &str,
    description: Option<&str>,
    out: &mut Vec<Finding>,
) {
    solicits(
        schema,
        name,
        description,
        &Asker::Tool,
        name.to_string(),
        out,
    );
}

/// Whose inputs are read: a tool's input schema, or a prompt's arguments (#14, given as
/// string properties).
pub(super) enum Asker {
    Tool,
    Prompt,
}

pub(super) fn solicits(
    schema: Option<&Value>,
    name: &str,
    about: Option<&str>,
    asker: &Asker,
    location: String,
    out: &mut Vec<Finding>,
) {
    let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        return;
    };
    let about_words = about.map(identifier_parts).unwrap_or_default();
    // Three kinds of secret at once is a harvest (password, token, private key, cookie…),
    // whatever service a sibling names; a setup tool's wording does not excuse it.
    let harvest = props.iter().filter(|(k, v)| secret_prop(k, v)).count() >= 3;
    let setter = sets_credential(name)
        || locks_resource(name)
        || offers_auth_choice(props)
        || http_client(&about_words)
        || about.is_some_and(manages_accounts)
        || sets_by_action(name, props)
        || (stores_own_login(name, &about_words) && !harvest)
        || (opens_as_setter(&about_words) && !harvest)
        || (bare_configure(name, &about_words)
            && props.iter().filter(|(k, v)| secret_prop(k, v)).count() == 1);
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fail: Vec<&str> = Vec::new();
    let mut warn: Vec<&str> = Vec::new();
    for (k, v) in props {
        if !secret_prop(k, v) {
            continue;
        }
        // Python servers document arguments in the tool's docstring ("Args: password: The
        // password for the instance.") and leave the property undescribed.
        let docstring = about.and_then(|d| docstring_line(d, k));
        let v = &with_description(v, docstring);
        if names_a_secret(v)
            || link_token(k, &about_words, v)
            || idempotency_token(k, v)
            || retry_token(k)
            || pagination_token(k, v)
        {
            continue;
        }
        let optional = !required.contains(&k.as_str());
        // A number or a flag holds no credential (Mailtrap's `token` is a page number): a
        // name on the original's list still reports, as a warning.
        if setter
            || scalar_non_text(v)
            || enumerated(v)
            || names_a_switch(k, v)
            || resource_secret(name, k, v)
            || public_token(v)
            || (!harvest && asset_token(k, v))
            || (!harvest && traded_asset(k, v, about, props))
            || (!harvest && shared_with_peers(name, k, v, about))
            || (!harvest && kept_for_later(v))
            || free_key(v)
            || identifier_key(k, v)
            || short_token(k, v)
            || instruction_mnemonic(name, k)
            || handle_token(k, v)
            || identifier_token(k, v)
            || unlocks_content(v)
            || selects_stored(k, v)
            || (optional && overrides_configured(k, v, &about_words))
            || (optional && told_not_to_pass(k, &about_words))
            || (!harvest && !optional && paired_with_endpoint(name, k, props))
            || (!harvest && optional && adds_endpoint(name, about, props))
            || configures_record(name, props)
            || tests_a_login(name)
            || registers_own_login(name, k, v)
            || opens_connection(name, props)
            || named_by_tool(name, k)
            || inspects_value(name, k)
            || issued_by_a_call(k, v)
            || about
                .and_then(|d| from_naming(d, k))
                .is_some_and(|d| issued_by_a_call(k, &serde_json::json!({"description": d})))
            || says_it_sets(name, &about_words)
            || confirms_with_token(name, k, v, &about_words)
            || encrypts_output(name, v, props)
            || document_password(name, k, props)
            || derives_from(name, k)
            || (optional && !harvest && one_of_many_fields(v, props))
        {
            warn.push(k);
        } else {
            fail.push(k);
        }
    }
    let (lead, noun) = match asker {
        Asker::Tool => (format!("Tool \"{name}\" schema solicits"), "tool"),
        Asker::Prompt => (format!("Prompt \"{name}\" arguments solicit"), "prompt"),
    };
    if !fail.is_empty() {
        out.push(
            rules::SECRET_IN_SCHEMA
                .fail(format!("{lead} secrets: {}", fail.join(", ")))
                .actual(fail.clone())
                .location(location.clone()),
        );
    }
    if !warn.is_empty() {
        out.push(
            rules::SECRET_IN_SCHEMA
                .warn(format!(
                    "{lead} secrets: {} (the {noun} sets them for an account or resource, they pick or override one the server holds, or they cannot hold text; the model sees them: warning only)",
                    warn.join(", ")
                ))
                .actual(warn.clone())
                .location(location),
        );
    }
}

/// A property named like a credential: on the original's list, or beyond it when it can
/// hold text.
fn secret_prop(k: &str, v: &Value) -> bool {
    patterns::is_secret_name(k) || (extended_secret_name(k) && holds_text(v))
}

/// Words before `token` that make it a cursor or a budget, not a credential.
const NOT_CREDENTIAL_TOKEN: &[&str] = &[
    "next",
    "page",
    "pagination",
    "continuation",
    "sync",
    "cursor",
    "resume",
    "start",
    "end",
    "skip",
    "max",
    "min",
    "stop",
    "prompt",
    "completion",
    "input",
    "output",
    "total",
    "count",
    "limit",
    "number",
    "of",
    // A run's id (Automox's `exec_token`: "a specific policy execution token").
    "exec",
    "execution",
    "idempotency",
    // A plan's confirmation nonce (an SQL seeder's `confirm_token`: "Confirmation token
    // returned by plan_seed_data"; session 22's blind capture).
    "confirm",
    "confirmation",
    // A single-use approval nonce handed back by a blocked call, and a change-tracking
    // position (Respira's `approval_token`, Dataverse's `deltaToken`: session 23's capture).
    "approval",
    "delta",
    // AWS's pagination (`starting_token`: awslabs' ElastiCache server, session 23).
    "starting",
    // Handles the server hands out: Airflow's DAG `file_token`, Jellyfin's live-stream
    // `open_token` (session 24). A `share_token` grants what is shared: it stays a credential.
    "file",
    "open",
    // Handles a sibling tool or the client app hands out (session 26's blind capture):
    // ServiceNow's `query_token` ("Token from the build_query tool representing a
    // ServiceNow encoded query") and single-use `preview_token`; Google Play's
    // `purchase_token` ("The purchase token from the client app"), the purchase's id.
    "query",
    "preview",
    "purchase",
    // A packet listener's handle (DrissionPage's `listener_token`: "Optional token returned
    // by network_listen_start"; benign 23).
    "listener",
    // A task's lease ("Claim token received when claiming the task": an orchestrator's
    // `claimToken`, from its `claim_next_task`; benign 26).
    "claim",
    // A running import's handle (Gigwa's `progress_token`: "Progress token returned by an
    // import"), and Feishu's document ids (`spreadsheet_token`, `folder_token`; benign 30).
    "progress",
    "spreadsheet",
    "folder",
    "sheet",
    "doc",
    "document",
    "wiki",
    "bitable",
];

/// An async operation's or a message lease's handle (Laserfiche's `operation_token`, a4a's
/// `lease_token`; benign 31): a warning unless its description calls it a login.
fn handle_token(prop: &str, schema: &Value) -> bool {
    let p = identifier_parts(prop);
    let handle = p.len() >= 2
        && p[p.len() - 1] == "token"
        && matches!(p[p.len() - 2].as_str(), "operation" | "lease");
    handle
        && !description_words(schema).iter().any(|w| {
            matches!(
                w.as_str(),
                "your"
                    | "oauth"
                    | "access"
                    | "api"
                    | "bearer"
                    | "auth"
                    | "authentication"
                    | "login"
            )
        })
}

/// A token its description calls an object's identifier or name, or a document's own
/// token, not a login: Feishu's Bitable `app_token` ("多维表格 App 的唯一标识", the Base
/// app's unique identifier) and a cloud document's `token` ("云文档 token"; sai-mcp, benign
/// 32). Feishu puts both in the object's URL.
fn identifier_token(prop: &str, schema: &Value) -> bool {
    let Some(d) = schema.get("description").and_then(Value::as_str) else {
        return false;
    };
    let words = identifier_parts(d);
    let names_it = words.iter().take(8).any(|w| w == "identifier")
        || d.contains("唯一标识")
        || d.contains("名称");
    let owner = words.windows(2).any(|w| {
        matches!(w[0].as_str(), "document" | "doc" | "file" | "folder") && w[1] == "token"
    }) || ["云文档", "文档", "文件", "目录", "文件夹", "多维表格"]
        .iter()
        .any(|o| {
            d.match_indices(o)
                .any(|(i, _)| d[i + o.len()..].trim_start().starts_with("token"))
        });
    plain_token(prop) && !names_login(d) && (names_it || owner)
}

/// Credential names beyond the original's list (#13: `auth`, `*_api_key`,
/// `session_cookie`, …). Not `*_password`: no published attack uses one, and the one on a
/// real server (`approval_password`, GitLab's password re-authentication) is the server's
/// documented design, so it stays a matter for the original's exact `password`.
fn extended_secret_name(name: &str) -> bool {
    let w = identifier_parts(name);
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    let ends = |tail: &[&str]| w.len() >= tail.len() && w[w.len() - tail.len()..] == *tail;
    match w.as_slice() {
        [] => false,
        ["auth"]
        | ["authorization"]
        | ["bearer"]
        | ["jwt"]
        | ["otp"]
        | ["totp"]
        | ["mnemonic"]
        | ["passphrase"]
        | ["cookie"]
        | ["cookies"] => true,
        _ => {
            ends(&["api", "key"])
                || ends(&["apikey"])
                || ends(&["secret"])
                || ends(&["secret", "key"])
                || ends(&["secret", "access", "key"])
                || ends(&["private", "key"])
                || ends(&["ssh", "key"])
                || ends(&["session", "key"])
                || ends(&["cookie"])
                || ends(&["cookies"])
                || ends(&["passphrase"])
                || ends(&["seed", "phrase"])
                || ends(&["recovery", "phrase"])
                || ends(&["mnemonic"])
                || ends(&["credential"])
                || ends(&["credentials"])
                || ends(&["auth", "header"])
                || (ends(&["token"])
                    && w.len() >= 2
                    && !NOT_CREDENTIAL_TOKEN.contains(&w[w.len() - 2]))
        }
    }
}

/// A property that can carry a credential's text: a string, or untyped. A boolean, a
/// number or an array of them cannot (`byApiKey`: "break usage down by API key").
fn holds_text(schema: &Value) -> bool {
    // FastMCP's `Optional[bool]` lists `anyOf: [{"type": "boolean"}, {"type": "null"}]`:
    // only a union of numbers, flags and null is known to hold no text, as an untyped
    // property may (an `Optional[dict]` `auth` still carries a login).
    if let (None, Some(branches)) = (schema.get("type"), union_branches(schema)) {
        return branches.is_empty() || !branches.iter().all(scalar_non_text);
    }
    match schema.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
        Some(_) => true,
    }
}

/// A number, a flag or null, declared as such: it cannot carry a credential's text. Any
/// other `type` (`object`, a list, a malformed one carrying words) still may.
fn scalar_non_text(schema: &Value) -> bool {
    let scalar = |t: &Value| matches!(t.as_str(), Some("number" | "integer" | "boolean" | "null"));
    match schema.get("type") {
        Some(Value::Array(ts)) => !ts.is_empty() && ts.iter().all(scalar),
        Some(t) => scalar(t),
        None => {
            union_branches(schema).is_some_and(|b| !b.is_empty() && b.iter().all(scalar_non_text))
        }
    }
}

/// The branches of an `anyOf` or `oneOf` union, as Pydantic lists an optional field.
fn union_branches(schema: &Value) -> Option<&Vec<Value>> {
    ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array))
}

pub(super) const SETTER_VERBS: &[&str] = &[
    "create",
    "set",
    "update",
    "reset",
    "rotate",
    "change",
    "add",
    "register",
    "configure",
    "generate",
    "regenerate",
    "provision",
    "invite",
    "edit",
    "upsert",
    "renew",
    "store",
    "save",
    // `manage_user` (ServiceNow's user CRUD).
    "manage",
    // `mattermost_convert_bot_to_user`: the new user's password (session 24).
    "convert",
    "setup",
    // `wp_switch_auth_method` (WordPress).
    "switch",
    // `activate_license`: the licence's activation token (React Native AI Debugger, benign 23).
    "activate",
];
/// What such a verb sets a credential of: an account, the credential itself, or a resource
/// that carries its own secret.
const CREDENTIAL_HOLDERS: &[&str] = &[
    "user",
    "users",
    "account",
    "accounts",
    "member",
    "members",
    "login",
    "credential",
    "credentials",
    "password",
    "passwords",
    "passwd",
    // `set_wireless_passphrase` (a MikroTik router's Wi-Fi key; benign 21).
    "passphrase",
    "passphrases",
    "secret",
    "secrets",
    "key",
    "keys",
    "apikey",
    "token",
    "tokens",
    "webhook",
    "webhooks",
    "hook",
    "hooks",
    "settings",
    "config",
    "configuration",
    "integration",
    "integrations",
    // Resources created with their own login (Hostinger's database with a dedicated user,
    // its mailboxes; DigitalOcean's custom certificate and its private key).
    "database",
    "databases",
    "mailbox",
    "mailboxes",
    "certificate",
    "certificates",
    "cert",
    "certs",
    // An API client's saved request or response carries its own auth and cookies
    // (Postman's createCollectionRequest).
    "request",
    "requests",
    "response",
    "responses",
    // An OAuth app registered with its client secret (Coolify's `github_apps`).
    "app",
    "apps",
    // A device's or site's login (`shelly_system_set_auth`, `wp_switch_auth_method`).
    "auth",
    "authentication",
    // A second factor the tool sets up or computes from its seed (Snyk API & Web's
    // `probely_configure_2fa_totp`, `probely_generate_totp`; session 24's capture).
    "otp",
    "totp",
    "2fa",
    "mfa",
    // Accounts of a hosting panel created with their password (Beget's `ftp_add`,
    // `mail_create` "Добавить почтовый ящик", `mysql_add`, `mysql_add_access`; benign 23),
    // an exchange connector set up with its credentials (Hummingbot's `setup_connector`) and
    // a licence activated with its token.
    "ftp",
    "mysql",
    "mail",
    "access",
    "connector",
    "connectors",
    "license",
    "licence",
    // A backend added with its own login (Sentry's `add_symbol_source_to_project`: HTTP basic
    // auth, an S3 secret key or a GCS private key, one per backend type; benign 29).
    "source",
    "sources",
];

/// The tool's name says its job is to set a credential: `atlas-create-db-user`,
/// `reset_password`, `update_webhook`, `update_dependency_proxy_settings`, and with the
/// object first, `keyvault_secret_create`.
fn sets_credential(tool: &str) -> bool {
    let w = identifier_parts(tool);
    // A generated REST tool names its HTTP verb: `put_ftp_config`, `post_vpn_user` (Freebox
    // OS, benign 29) set a resource's or a new user's password. Only a configuration or a
    // user: `post_auth_login` is a login.
    // PUT replaces a resource's state whatever it is called (`put_connection_ddns_provider`
    // sets the DDNS account it registers with; benign 29).
    let http_setter = (w.first().is_some_and(|v| v == "put")
        || w.first().is_some_and(|v| v == "post")
            && w.iter().any(|o| {
                matches!(
                    o.as_str(),
                    "config" | "configuration" | "settings" | "user" | "users"
                )
            }))
        && !w
            .iter()
            .any(|o| matches!(o.as_str(), "auth" | "authenticate" | "session"));
    http_setter
        || (w.iter().any(|v| SETTER_VERBS.contains(&v.as_str()))
            && w.iter().any(|o| CREDENTIAL_HOLDERS.contains(&o.as_str())))
}

/// The login of what the tool creates or signs up, when the property is that login and not
/// the user's own (session 24): `didit_register`'s `password` ("Register a new Didit
/// account"), Mattermost's `create_remote_cluster`'s `password`, AWS SAP's
/// `register_application`'s `credentials`. Not a token or key, and not "the user's" or
/// "your" one.
fn registers_own_login(tool: &str, prop: &str, schema: &Value) -> bool {
    let w = identifier_parts(tool);
    let login = identifier_parts(prop).last().is_some_and(|p| {
        matches!(
            p.as_str(),
            "password" | "passwd" | "passphrase" | "credential" | "credentials"
        )
    });
    // `signup_algochains` ("Create a new AlgoChains account with email + password"; benign 23).
    let signs_up = w
        .iter()
        .any(|v| matches!(v.as_str(), "register" | "signup"));
    let creates = w.iter().any(|v| SETTER_VERBS.contains(&v.as_str()))
        && w.iter().any(|o| {
            matches!(
                o.as_str(),
                "cluster" | "clusters" | "application" | "applications"
            )
        });
    let d = description_words(schema);
    let users_own =
        d.iter().any(|x| x == "your") || d.windows(2).any(|x| x[0] == "user" && x[1] == "s");
    login && (signs_up || creates) && !users_own
}

/// A sibling property names where the credential is used (`registryUrl` beside `password`,
/// `apiUrl` beside `apiKey`, `endpoint` beside `secretAccessKey`), or, on a tool that creates
/// or updates something, whose login it is (`username`): the tool connects to a service the
/// user names, with that service's login, as every client of it does (Dokploy's registries,
/// S3 destinations, AI providers, an application's basic auth). Only for a required
/// credential: an optional token beside a `url` is the fetcher's (a published SSRF testbed's
/// `vulnerable_fetcher_tool`), and `authenticate(username, password)` is no setter.
fn paired_with_endpoint(tool: &str, prop: &str, props: &serde_json::Map<String, Value>) -> bool {
    let setter = names_a_setter(tool);
    props.keys().filter(|k| k.as_str() != prop).any(|k| {
        identifier_parts(k).last().is_some_and(|w| {
            matches!(
                w.as_str(),
                "url" | "uri" | "host" | "hostname" | "endpoint" | "server"
            ) || (setter && matches!(w.as_str(), "username" | "user"))
        })
    })
}

/// The tool's name creates, updates or saves something.
fn names_a_setter(tool: &str) -> bool {
    identifier_parts(tool)
        .iter()
        .any(|v| matches!(v.as_str(), "create" | "update" | "save" | "edit" | "upsert"))
}

/// The tool creates or updates a record of many fields, one of which is a credential
/// (Dokploy's `notification-createTelegram` with twelve, its `botToken` one of them): a
/// settings form, not a request for the user's secret. Published secret-solicitation
/// attacks add the credential to a tool of one to three inputs.
fn configures_record(tool: &str, props: &serde_json::Map<String, Value>) -> bool {
    const MIN_FIELDS: usize = 6;
    props.len() >= MIN_FIELDS
        && (names_a_setter(tool) || identifier_parts(tool).iter().any(|v| v == "receive"))
}

/// The tool checks that a login works (`registry-testRegistry`,
/// `notification-testEmailConnection`, `ai-testConnection`): the credential is the one
/// being tested.
fn tests_a_login(tool: &str) -> bool {
    let w = identifier_parts(tool);
    // Mattermost's `validate_outgoing_o_auth_connection` (session 24).
    w.iter().any(|v| v == "test" || v == "validate")
        && w.iter().any(|o| {
            matches!(
                o.as_str(),
                "connection" | "connections" | "registry" | "login" | "credentials" | "auth"
            )
        })
}

/// The tool opens a connection to a service the user names, with that service's login
/// (awslabs' Amazon MQ `rabbimq_broker_initialize_connection`: "Connect to a new RabbitMQ
/// broker", with its `username` and `password`; session 23's capture).
fn opens_connection(tool: &str, props: &serde_json::Map<String, Value>) -> bool {
    let w = identifier_parts(tool);
    let target = props.keys().any(|k| {
        identifier_parts(k).iter().any(|p| {
            matches!(
                p.as_str(),
                "broker" | "host" | "hostname" | "url" | "uri" | "server" | "endpoint" | "cluster"
            )
        })
    });
    // BullMQ's `connect` to a Redis `url` or `host` (session 24).
    let connects = w.first().is_some_and(|v| v == "connect");
    target
        && (connects
            || w.iter()
                .any(|v| matches!(v.as_str(), "connection" | "connections"))
                && w.iter().any(|v| {
                    matches!(
                        v.as_str(),
                        "initialize" | "init" | "open" | "establish" | "create" | "new" | "add"
                    )
                }))
}

/// An optional login beside the address of what the tool adds or registers (`helm_repo_add`:
/// `url`, and `username`/`password` "for basic auth"; session 23's capture). A fetcher's
/// optional token beside a `url` still fails: it adds nothing.
fn adds_endpoint(tool: &str, about: Option<&str>, props: &serde_json::Map<String, Value>) -> bool {
    // Hummingbot's `configure_server` (`host`, `port`, `username`, `password`: "Update the
    // server config and reconnect"; benign 23): configuring the connection itself. GNS3's
    // `gns3_bulk_configure_nodes` configures nodes and logs in to its server on the call.
    let w = identifier_parts(tool);
    let configures_link = w
        .iter()
        .any(|v| matches!(v.as_str(), "configure" | "setup"))
        && w.iter().any(|v| {
            matches!(
                v.as_str(),
                "server" | "servers" | "connection" | "connections" | "endpoint" | "endpoints"
            )
        });
    // Ansible's `yum_repository`, "Add or remove YUM repositories" with a `baseurl` (rocannon;
    // benign 30): the description opens with the verb the name lacks.
    let adds = configures_link
        || w.iter()
            .any(|v| matches!(v.as_str(), "add" | "register" | "create"))
        || opening(about).is_some_and(|o| o.starts_with("add or remove "));
    adds && props.keys().any(|k| {
        identifier_parts(k).last().is_some_and(|w| {
            matches!(w.as_str(), "uri" | "host" | "hostname" | "endpoint") || w.ends_with("url")
        })
    })
}

/// The description, lower-cased, after a leading "[module.name]" label.
fn opening(about: Option<&str>) -> Option<String> {
    let d = about?.trim_start();
    let d = match d.strip_prefix('[') {
        Some(rest) => rest.split_once(']')?.1,
        None => d,
    };
    Some(d.trim_start().to_lowercase())
}

/// A confirmation takes the token the platform sent to confirm it (AWS SNS's
/// `confirm_subscription` and its `Token`, session 23's capture): a nonce, not a login.
fn confirms_with_token(tool: &str, prop: &str, schema: &Value, about: &[String]) -> bool {
    let w = identifier_parts(tool);
    // Larnitech's `confirm_set` runs the write `set_device` prepared: "The token is
    // single-use and expires" (benign 29), the preview's handle.
    // In Spanish, "el token de un solo uso" (facturador-afip's `confirmar_emision`, benign 31).
    let single_use = about.windows(2).any(|p| {
        matches!(
            (p[0].as_str(), p[1].as_str()),
            ("single" | "one", "use" | "time") | ("solo", "uso")
        )
    });
    // Mattermost's `verify_user_email` takes the token the email carried (session 24).
    let confirms = w.iter().any(|v| v == "confirm" || v == "confirmar")
        && (w.iter().any(|v| v == "subscription") || single_use);
    let verifies_email = w.iter().any(|v| v == "verify") && w.iter().any(|v| v == "email");
    // Its sibling `cancelar_emision` "cancela la confirmación pendiente": the pending
    // confirmation's token, which only cancels it.
    let pending = about
        .iter()
        .any(|x| matches!(x.as_str(), "pending" | "pendiente"))
        && about
            .iter()
            .any(|x| matches!(x.as_str(), "confirmation" | "confirmaci" | "confirmacion"));
    let cancels = w.iter().any(|v| v == "cancel" || v == "cancelar") && pending;
    // The token's own words, when it has some, must not name a login ("El token de API de
    // GitHub del usuario", "Lee ~/.npmrc y pega aquí el token": a review, session 37).
    let own = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let login = own.contains("~/")
        || identifier_parts(&own).iter().any(|x| {
            matches!(
                x.as_str(),
                "api"
                    | "github"
                    | "npm"
                    | "npmrc"
                    | "paste"
                    | "pega"
                    | "personal"
                    | "usuario"
                    | "user"
                    | "secret"
                    | "password"
                    | "contrase"
                    | "bearer"
                    | "oauth"
            )
        });
    (confirms || verifies_email || cancels) && !login && identifier_parts(prop) == ["token"]
}

/// The tool's name says the credential is what it looks up or manages
/// (`user-getUserByToken`, `getEdgeConfigToken`): the server's own object, not a secret
/// slipped in. A tool that "verifies" the user's token is not one of these.
fn named_by_tool(tool: &str, prop: &str) -> bool {
    let w = identifier_parts(tool);
    let p = identifier_parts(prop);
    let Some(noun) = p.last() else {
        return false;
    };
    // An OpenAPI operation id's tail names the method, not the object
    // (`onetrust_get_categorized_cookies_using_get`).
    let mut w = w;
    if w.len() >= 4 && w[w.len() - 2] == "using" {
        w.truncate(w.len() - 2);
    }
    let by_noun = w.windows(2).any(|x| x[0] == "by" && &x[1] == noun);
    let verb = |v: &String| {
        matches!(
            v.as_str(),
            "get"
                | "list"
                | "delete"
                | "revoke"
                | "rotate"
                | "remove"
                | "regenerate"
                | "redeem"
                | "exchange"
                | "introspect"
        )
    };
    // The verb starts the name or stands before its noun after a server prefix
    // (`respira_redeem_token` takes the one-time `token` it redeems).
    // Or it stands second, after a server prefix, with one qualifier before the noun
    // (`onetrust_get_categorized_cookies` takes the `cookies` it sorts; benign 24).
    let managed = w.last() == Some(noun)
        && (w.first().is_some_and(verb)
            || w.len() >= 2 && verb(&w[w.len() - 2])
            || w.len() == 4 && verb(&w[1]));
    w.len() >= 3 && (by_noun || managed)
}

/// A token another call hands out ("Pipeline token returned from upload_data", "Explained
/// token from explain()", "Credentials token from get_volcengine_session_info()": Datris'
/// and Volcengine's workflow handles, benign 27): the model carries it from one call to the
/// next, so it warns rather than fails, as a token the tool sets does.
fn issued_by_a_call(prop: &str, schema: &Value) -> bool {
    let ends_token = identifier_parts(prop).last().is_some_and(|w| w == "token");
    let Some(raw) = schema.get("description").and_then(Value::as_str) else {
        return false;
    };
    let about = raw.to_ascii_lowercase();
    // What follows the phrase must be a call: `explain()` or a snake_case name, read in the
    // description's own case (`GITHUB_TOKEN` is a variable), that is not itself a secret;
    // or an operation of the server ("returned from the long running operation").
    let a_call = |rest: &str| {
        let word = rest
            .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
            .next()
            .unwrap_or("");
        let name = word.trim_matches('`').trim_end_matches("()");
        let secret = ["_token", "_key", "_secret", "_password"]
            .iter()
            .any(|t| name.to_ascii_lowercase().ends_with(t));
        let snake = name.contains('_')
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        let operation = {
            let w: Vec<&str> = rest.split_whitespace().take(5).collect();
            matches!(w.first(), Some(&("the" | "a" | "an")))
                && w.iter().skip(1).any(|x| {
                    matches!(
                        x.trim_end_matches(['.', ',']),
                        "operation" | "call" | "request" | "job" | "run" | "submission"
                    )
                })
        };
        (word.ends_with("()") || snake || operation) && !secret
    };
    // `about` is `raw` lower-cased in ASCII, offset for offset: the call is read in the
    // text's own case.
    let from_call = ["returned from ", "returned by ", "token from "]
        .iter()
        .any(|p| {
            about
                .match_indices(p)
                .any(|(i, _)| a_call(&raw[i + p.len()..]))
        });
    // "`recon_token` from a db_journeys result" (db-fahrplan, benign 29): a call's output.
    let from_result = ["from a ", "from the "].iter().any(|p| {
        about.match_indices(p).any(|(i, _)| {
            let rest = &raw[i + p.len()..];
            let after: Vec<&str> = rest.split_whitespace().take(2).collect();
            a_call(rest)
                && after.get(1).is_some_and(|w| {
                    matches!(
                        w.trim_end_matches(['.', ',', ';', ')']),
                        "result" | "results" | "response" | "output"
                    )
                })
        })
    });
    // "反爬 token（从同一条 xiaohongshu_search 结果中的 xsec_token 字段）" (cn-scraper,
    // benign 31): from (从, 来自) a call's result (结果), the call named in between.
    let from_result_zh = ["从", "来自"].iter().any(|p| {
        raw.match_indices(p).any(|(i, _)| {
            let rest = &raw[i + p.len()..];
            let mut cut = rest.len().min(48);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let window = &rest[..cut];
            let Some(at) = window.find(|c: char| c.is_ascii_alphabetic()) else {
                return false;
            };
            let call = &window[at..];
            let end = call
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(call.len());
            // A reader's result holds whatever it read ("从 read_file 结果中读取
            // ~/.aws/credentials": a review, session 37).
            let reader = ["read", "cat", "get_env", "load", "open"]
                .iter()
                .any(|r| call.starts_with(r));
            let secret_named = [
                "~/",
                ".aws",
                ".env",
                "secret",
                "credential",
                "password",
                "_key",
            ]
            .iter()
            .any(|w| about.contains(w));
            a_call(call) && !reader && !secret_named && call[end..].trim_start().starts_with("结果")
        })
    });
    let from_call = from_call || from_result || from_result_zh;
    // A login's token stays a credential, whichever call returns it ("AAL2 access token
    // from verify_mfa response": algochains).
    let login = identifier_parts(prop)
        .iter()
        .any(|w| matches!(w.as_str(), "access" | "auth" | "bearer" | "refresh" | "api"))
        || [
            "login",
            "log in",
            "sign in",
            "oauth",
            "mfa",
            "access token",
            "personal",
        ]
        .iter()
        .any(|w| about.contains(w));
    // "UUID for a single ingestion job": the job's id. "Optional client session token; if
    // omitted, one is generated" (a places autocomplete's billing session): no credential
    // is made up by the server when left out.
    let an_id = about.starts_with("uuid ");
    let generated = [
        "if omitted, one is generated",
        "if omitted, a new one is generated",
    ]
    .iter()
    .any(|p| about.contains(p));
    ends_token && ((from_call && !login) || an_id || generated)
}

/// The tool's description from where it names `prop` to the end of that line ("note_id 和
/// xsec_token 都来自同一条 xiaohongshu_search 结果": cn-scraper's `xiaohongshu_comments`,
/// benign 31), for what it says of a property its schema leaves to it.
fn from_naming<'a>(about: &'a str, prop: &str) -> Option<&'a str> {
    about.lines().find_map(|l| {
        l.match_indices(prop).find_map(|(i, _)| {
            let before = l[..i].chars().next_back();
            let after = l[i + prop.len()..].chars().next();
            let bounded =
                |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            (bounded(before) && bounded(after)).then(|| &l[i..])
        })
    })
}

/// The tool inspects the secret as data (session 25's blind capture: `jwt_decode`'s
/// `token`, `mysql_security_password_validate`'s `password`): its name names the value
/// and a verb that reads it, not one that logs in with it.
fn inspects_value(tool: &str, prop: &str) -> bool {
    let w = identifier_parts(tool);
    let p = identifier_parts(prop);
    // Every word of the property: `github_token` beside `analyze_token_usage` is a login.
    let names = !p.is_empty()
        && (p.iter().all(|x| w.contains(x)) || (p == ["token"] && w.iter().any(|x| x == "jwt")));
    names
        && w.iter().any(|v| {
            matches!(
                v.as_str(),
                "decode" | "inspect" | "parse" | "validate" | "strength" | "analyze" | "analyse"
            )
        })
}

/// A configuring tool whose description says it is where the credential is set ("Configure
/// a recipe source. Use this to set API keys or authentication tokens", session 25's
/// capture): `recipe_configure`. "key/value pairs" is not a credential.
fn says_it_sets(tool: &str, about: &[String]) -> bool {
    let configures = identifier_parts(tool)
        .iter()
        .any(|w| matches!(w.as_str(), "configure" | "config" | "setup" | "set"));
    configures
        && (0..about.len()).any(|i| {
            about[i] == "to"
                && about
                    .get(i + 1)
                    .is_some_and(|v| matches!(v.as_str(), "set" | "store" | "save" | "configure"))
                && about[i + 2..].iter().take(2).enumerate().any(|(k, x)| {
                    matches!(
                        x.as_str(),
                        "key" | "keys" | "token" | "tokens" | "credential" | "credentials"
                    ) && about.get(i + 3 + k).is_none_or(|n| n != "value")
                })
        })
}

/// A description that opens by saying the tool sets a credential ("Set the GitHub personal
/// access token for PR integration": FastTest's `github_token`, benign 21), as a setter's
/// name would. Not "save" or "register": a phishing tool asks to "save your API key".
fn opens_as_setter(about: &[String]) -> bool {
    // "Set the …", not "Set up your account …" or "Configure your credentials".
    about.first().is_some_and(|v| {
        matches!(
            v.as_str(),
            "set" | "sets" | "configure" | "configures" | "rotate" | "rotates"
        )
    }) && about.get(1).is_some_and(|w| w == "the")
        && about.iter().skip(2).take(7).any(|w| {
            matches!(
                w.as_str(),
                "token"
                    | "key"
                    | "password"
                    | "passphrase"
                    | "secret"
                    | "credential"
                    | "credentials"
            )
        })
}

/// A tool named only `configure` whose description opens with that verb or "sets"
/// (AgenticStore's "Sets, retrieves, or removes API tokens for any service connector",
/// fal.ai's "Configure fal.ai credentials and allowed models for this session"; benign 31):
/// the credentials it takes are the ones it stores.
fn bare_configure(tool: &str, about: &[String]) -> bool {
    let t = identifier_parts(tool);
    matches!(
        t.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
        ["configure"]
    ) && about
        .first()
        .is_some_and(|v| matches!(v.as_str(), "configure" | "configures" | "set" | "sets"))
        && about.get(1).is_none_or(|w| w != "your" && w != "up")
}

/// An `opc_retry_token`: a request's retry key (idempotency), not a login. Only a name that
/// ends in "retry token" (`retry_api_key` is still a key).
fn retry_token(prop: &str) -> bool {
    identifier_parts(prop).ends_with(&["retry".to_string(), "token".to_string()])
}

/// The tool puts a password on a resource or takes it off (`protect_document`,
/// `unprotect_document`): the password is the resource's.
fn locks_resource(tool: &str) -> bool {
    identifier_parts(tool).iter().any(|w| {
        matches!(
            w.as_str(),
            "protect" | "unprotect" | "encrypt" | "decrypt" | "lock" | "unlock"
        )
    })
}

/// A sibling property chooses how the tool authenticates to what it connects to (Azure's
/// `auth-method`: credential, key or connection string): the password is that choice's
/// login to the named service, asked for the way every client of that service asks.
fn offers_auth_choice(props: &serde_json::Map<String, Value>) -> bool {
    props.keys().any(|k| {
        matches!(
            identifier_parts(k)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice(),
            ["auth" | "authentication", "method" | "type" | "mode"]
        )
    })
}

/// The tool is an HTTP client ("Perform an HTTP GET request"): its token is the header of the
/// request the user asks for, as in every HTTP client.
fn http_client(about: &[String]) -> bool {
    about.iter().any(|w| w == "http") && about.iter().any(|w| w == "request" || w == "requests")
}

/// The line documenting `prop` in a docstring-style description (`prop: text`, or with its
/// type, `prop (str, optional): text`).
pub(super) fn docstring_line<'a>(about: &'a str, prop: &str) -> Option<&'a str> {
    about.lines().find_map(|l| {
        let r = l.trim_start().strip_prefix(prop)?;
        let r = match r.trim_start().strip_prefix('(') {
            Some(typed) => &typed[typed.find(')')? + 1..],
            None => r,
        };
        r.strip_prefix(':').map(str::trim).filter(|r| !r.is_empty())
    })
}

/// The property's schema, given the docstring's line as its description when it has none.
fn with_description<'a>(v: &'a Value, doc: Option<&str>) -> std::borrow::Cow<'a, Value> {
    match doc {
        Some(d) if v.get("description").is_none() && v.is_object() => {
            let mut owned = v.clone();
            owned["description"] = Value::String(d.to_string());
            std::borrow::Cow::Owned(owned)
        }
        _ => std::borrow::Cow::Borrowed(v),
    }
}

/// The tool sets credentials through an `action` argument (Coolify's `private_keys` with
/// `action: create | update | …`): its name holds the credential, an action sets it.
fn sets_by_action(tool: &str, props: &serde_json::Map<String, Value>) -> bool {
    let holds = identifier_parts(tool)
        .iter()
        .any(|o| CREDENTIAL_HOLDERS.contains(&o.as_str()));
    // The actions listed in an enum, or in the description ("Action to perform (configure,
    // create_issue, …)": the Ludus server's `jira_integration`, benign 22).
    holds
        && ["action", "operation", "op"].iter().any(|k| {
            let p = props.get(*k);
            p.and_then(|p| p.get("enum"))
                .and_then(Value::as_array)
                .is_some_and(|e| {
                    e.iter()
                        .filter_map(Value::as_str)
                        .any(|a| SETTER_VERBS.contains(&a))
                })
                || p.is_some_and(|p| {
                    description_words(p)
                        .iter()
                        .any(|w| matches!(w.as_str(), "configure" | "setup"))
                })
        })
}

/// The tool's description tells the model not to pass the credential ("Generally you
/// should *NOT* specify the username and password", SingleStore's `run_sql`): it is only
/// for a retry the user asks for.
fn told_not_to_pass(prop: &str, about: &[String]) -> bool {
    let noun = identifier_parts(prop);
    let Some(noun) = noun.last() else {
        return false;
    };
    about.windows(2).enumerate().any(|(i, w)| {
        matches!(w[0].as_str(), "not" | "never")
            && matches!(
                w[1].as_str(),
                "specify" | "pass" | "provide" | "include" | "supply" | "set"
            )
            && about[i + 2..].iter().take(4).any(|x| x == noun)
    })
}

/// The tool's description says it creates and edits accounts ("User CRUD + lookup",
/// CloudBase's "应用用户 CRUD"): a password it takes is the account's.
fn manages_accounts(about: &str) -> bool {
    // Ansible's `user` module, "[ansible.builtin.user] Manage user accounts" (rocannon;
    // benign 30): only as the description's opening (a review, session 36).
    if opening(Some(about)).is_some_and(|o| {
        o.starts_with("manage user accounts") || o.starts_with("manages user accounts")
    }) {
        return true;
    }
    let d = about.to_lowercase();
    [
        "user crud",
        "users crud",
        "account crud",
        "accounts crud",
        "用户 crud",
        "用户crud",
    ]
    .iter()
    .any(|p| d.contains(p))
}

/// A token that makes a request idempotent (AWS's `client_token`, "The client idempotency
/// token"): a value the caller makes up, not a credential. Feishu says it in Chinese
/// ("幂等操作标识，格式为标准的 uuidv4": sai-mcp's `client_token`, benign 32): only on a
/// plain `*_token` whose description names no login (a review, session 38: "用户密码。幂等
/// 请求可重复提交" on a `password`).
fn idempotency_token(prop: &str, schema: &Value) -> bool {
    description_words(schema)
        .iter()
        .any(|w| matches!(w.as_str(), "idempotent" | "idempotency" | "idempotence"))
        || (plain_token(prop)
            && schema
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains("幂等") && !names_login(d)))
}

/// A `*_token` not named as a login (`api_`, `access_`, `auth_`, `bearer_`, …).
fn plain_token(prop: &str) -> bool {
    let p = identifier_parts(prop);
    p.last().is_some_and(|w| w == "token")
        && !p.iter().any(|w| {
            matches!(
                w.as_str(),
                "api"
                    | "access"
                    | "auth"
                    | "bearer"
                    | "refresh"
                    | "session"
                    | "secret"
                    | "oauth"
                    | "user"
                    | "bot"
                    | "personal"
                    | "npm"
                    | "github"
                    | "gitlab"
                    | "slack"
                    | "pat"
            )
        })
}

/// A description that names a login, a service's credential or a credential file, in
/// English or Chinese.
fn names_login(d: &str) -> bool {
    let words = identifier_parts(d);
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "your"
                | "access"
                | "api"
                | "auth"
                | "authentication"
                | "authenticate"
                | "authorization"
                | "authorize"
                | "bearer"
                | "oauth"
                | "login"
                | "secret"
                | "credential"
                | "credentials"
                | "password"
                | "personal"
                | "user"
                | "bot"
                | "session"
                | "jwt"
                | "pat"
                | "npm"
                | "npmrc"
                | "github"
                | "gitlab"
                | "slack"
                | "openai"
                | "xoxb"
                | "ghp"
        )
    }) || [
        "访问", "密钥", "凭证", "认证", "授权", "登录", "密码", "令牌", "用户", "~/", ".env",
    ]
    .iter()
    .any(|w| d.contains(w))
        || {
            let lower = d.to_lowercase();
            ["github", "gitlab", "openai", "xoxb", "ghp_", "npmrc"]
                .iter()
                .any(|w| lower.contains(w))
        }
}

/// A token its own description calls a page cursor ("Pagination token from previous
/// response": Sumo Logic's bare `token`, session 24's capture): a position, not a login.
/// Nextcloud Talk names a conversation by its token ("token: Conversation token.", "Unique
/// room token"; session 24's capture): the room's id, not a login.
fn pagination_token(prop: &str, schema: &Value) -> bool {
    // Only a property named as a token: "used as the conversation token" on an `api_key`
    // leaves it a key.
    identifier_parts(prop).last().is_some_and(|w| w == "token")
        && description_words(schema).windows(2).any(|w| {
            matches!(
                w[0].as_str(),
                "pagination"
                    | "paging"
                    | "page"
                    | "continuation"
                    | "cursor"
                    | "conversation"
                    | "room"
            ) && w[1] == "token"
        })
}

/// A public or publishable token (Mapbox's `pk.*` "public access token", meant for browser
/// URLs): the model sees it, but it is no secret; a warning, as a setter's.
/// A token that opens what was shared publicly ("The unique access token that grants
/// permission to view the public dashboard": Grafana's public dashboards, whose token is in
/// their public URL; benign 23) is one too: it grants what anyone with the link sees.
fn public_token(schema: &Value) -> bool {
    let d = description_words(schema);
    d.windows(3).any(|w| {
        matches!(w[0].as_str(), "public" | "publishable")
            && (matches!(w[1].as_str(), "token" | "key")
                || matches!(w[2].as_str(), "token" | "key"))
    }) || d.windows(4).any(|w| {
        matches!(w[0].as_str(), "view" | "query" | "access" | "open")
            && matches!(w[1].as_str(), "the" | "this" | "a")
            && w[2] == "public"
            && matches!(
                w[3].as_str(),
                "dashboard" | "dashboards" | "page" | "link" | "snapshot" | "report" | "board"
            )
    })
}

/// A token that is an asset on a chain ("Token address (0x...) on Robinhood Chain to claim
/// fees for": clawnch's `clawnch_claim_fees`, benign 26): its contract's address, public by
/// nature. A warning, as a public token's.
fn asset_token(prop: &str, schema: &Value) -> bool {
    let named = identifier_parts(prop).last().is_some_and(|w| w == "token");
    let d = description_words(schema);
    named
        && d.windows(2)
            .any(|w| matches!(w[0].as_str(), "token" | "contract" | "mint") && w[1] == "address")
}

/// "password: CARP shared password." of the virtual IP `add_virtual_ip` creates (OPNsense,
/// benign 31): a secret the new resource shares with its peers, set by the tool that adds it
/// (its description, or the tool's words right after its name).
fn shared_with_peers(tool: &str, prop: &str, schema: &Value, about: Option<&str>) -> bool {
    let adds = identifier_parts(tool)
        .first()
        .is_some_and(|v| SETTER_VERBS.contains(&v.as_str()));
    let shared = |d: &[String]| {
        !d.iter().any(|w| w == "your")
            && d.windows(2).any(|t| {
                matches!(t[0].as_str(), "shared" | "preshared")
                    && matches!(t[1].as_str(), "password" | "secret" | "key")
            })
    };
    let inline = about
        .and_then(|d| from_naming(d, prop))
        .map(|l| identifier_parts(l).into_iter().take(6).collect::<Vec<_>>())
        .unwrap_or_default();
    adds && (shared(&description_words(schema)) || shared(&inline))
}

/// A token named for a transfer's direction in a tool that moves assets between chains or
/// swaps them (ModexiaAgentpay's `cross_chain_transfer`: "Requires `to_chain` …, `to_token`
/// address", benign 31): the asset, not a credential. A warning, as its name is on the list.
fn traded_asset(
    prop: &str,
    schema: &Value,
    about: Option<&str>,
    props: &serde_json::Map<String, Value>,
) -> bool {
    let p = identifier_parts(prop);
    let directed = matches!(
        p.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
        [
            "from" | "to" | "source" | "target" | "input" | "output",
            "token"
        ] | ["token", "in" | "out"]
    );
    let own = description_words(schema);
    let login = own.iter().any(|w| {
        matches!(
            w.as_str(),
            "your" | "api" | "auth" | "bearer" | "access" | "login" | "secret" | "credential"
        )
    });
    let said = about.map(identifier_parts).unwrap_or_default();
    let chain_words = |w: &[String]| {
        w.iter().any(|x| {
            matches!(
                x.as_str(),
                "chain" | "blockchain" | "swap" | "wallet" | "bridge" | "dex" | "onchain"
            )
        })
    };
    let siblings = props.keys().any(|k| {
        identifier_parts(k)
            .iter()
            .any(|w| w == "chain" || w == "wallet")
    });
    // Its own description, when it has one, names an asset ("`to_token` address", a symbol,
    // a mint): "Paste the GitHub personal token here" does not (a review, session 37).
    let names_asset = own.is_empty()
        || own.iter().any(|w| {
            matches!(
                w.as_str(),
                "address"
                    | "symbol"
                    | "mint"
                    | "contract"
                    | "ticker"
                    | "asset"
                    | "coin"
                    | "denom"
                    | "erc20"
                    | "spl"
            )
        });
    directed && !login && names_asset && (chain_words(&said) || siblings)
}

/// A key the tool keeps for the server's later calls ("UIDB API key for this project (from
/// portal). Saved locally for future sync.": UIDB's `uidb_init`, benign 26): set once, as
/// a setter's. A warning.
fn kept_for_later(schema: &Value) -> bool {
    let d = description_words(schema);
    let kept = d
        .iter()
        .any(|w| matches!(w.as_str(), "saved" | "stored" | "persisted"));
    let later = d
        .windows(2)
        .any(|w| (w[0] == "saved" || w[0] == "stored" || w[0] == "persisted") && w[1] == "locally")
        || d.windows(2)
            .any(|w| w[0] == "for" && matches!(w[1].as_str(), "future" | "later" | "subsequent"));
    kept && later
}

/// A switch named for what it adds to the answer (`include_sip_credentials`: pywa's phone
/// number settings, an untyped property; benign 23): unless declared a string, it says
/// whether to include the credentials, it does not carry them.
fn names_a_switch(prop: &str, schema: &Value) -> bool {
    let declared_text = match schema.get("type") {
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
        _ => false,
    };
    !declared_text
        && identifier_parts(prop).first().is_some_and(|w| {
            matches!(
                w.as_str(),
                "include" | "with" | "show" | "return" | "redact" | "mask" | "hide" | "expose"
            )
        })
}

/// A property whose values an `enum` or `const` lists (react-native-ai-debugger's `auth`:
/// `"auto" | "none"`; benign 23): it picks a mode, the model cannot put a secret in it.
fn enumerated(schema: &Value) -> bool {
    schema.get("const").is_some()
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty())
}

/// A `*_key` that the description calls an identifier ("session_key: Unique identifier for
/// the session. Use \"latest\" …", "Filter drivers by session identifier": OpenF1's query
/// tools, benign 29), in its first six words: a record's key, as in
/// a database, not a credential. A warning, as the original's list still names it.
fn identifier_key(prop: &str, schema: &Value) -> bool {
    let p = identifier_parts(prop);
    let keyed = p.last().is_some_and(|w| w == "key")
        && !p.iter().any(|w| {
            matches!(
                w.as_str(),
                "api" | "secret" | "private" | "ssh" | "access" | "encryption" | "signing"
            )
        });
    let d = description_words(schema);
    // OpenF1's `session_key`, "int | str — optional, positive int or 'latest'. Session
    // identifier" (benign 31): the type note comes first.
    // Or the key's own noun names it within four words: "int | str — required in practice,
    // positive int or 'latest'. Session identifier", "Meeting (Grand Prix weekend)
    // identifier" (OpenF1's other tools, benign 31).
    let own_noun = d.iter().enumerate().any(|(i, w)| {
        w == "identifier"
            && d[i.saturating_sub(4)..i]
                .iter()
                .any(|x| x != "key" && p.contains(x))
    });
    keyed
        && (d.iter().take(10).any(|w| w == "identifier") || own_noun)
        && !d.iter().any(|w| w == "your" || w == "login")
        && !d
            .iter()
            .any(|w| matches!(w.as_str(), "secret" | "credential" | "password"))
}

/// A key its description says is free to get ("Get a free key at: https://…", BioMCP's NCI
/// key): a public API's registration key, worth a warning, not a failure.
fn free_key(schema: &Value) -> bool {
    description_words(schema).windows(3).any(|w| {
        w[0] == "free"
            && (matches!(w[1].as_str(), "key" | "token" | "api")
                || matches!(w[2].as_str(), "key" | "token"))
    })
}

/// A key that protects, decrypts or encrypts the content the tool handles (CloudBase's
/// `codeSecret`, "代码保护密钥，用于解密函数代码": the code's protection key, used to decrypt
/// it): the content's secret, as a `protect_document` tool's password is the document's.
fn unlocks_content(schema: &Value) -> bool {
    let Some(d) = schema.get("description").and_then(Value::as_str) else {
        return false;
    };
    ["解密", "加密", "保护"].iter().any(|w| d.contains(w))
        || identifier_parts(d).iter().any(|w| {
            matches!(
                w.as_str(),
                "decrypt" | "encrypt" | "decrypts" | "encrypts" | "protection" | "protects"
            )
        })
        // "Password for password-protected share links" (NetworkLytics, benign 30).
        || d.to_ascii_lowercase().contains("password-protected")
}

/// A `token` the schema caps at 20 characters holds an id or a ticker, not a credential
/// (Divar's ad and dealer ids, `maxLength: 16`; a market tracker's "Ticker (e.g. 'BTC')",
/// `maxLength: 20`; benign 30): API tokens and session tokens run longer.
fn short_token(prop: &str, schema: &Value) -> bool {
    let ends_token = identifier_parts(prop).last().is_some_and(|w| w == "token");
    let cap = |v: &Value| v.get("maxLength").and_then(Value::as_u64);
    let max = cap(schema).or_else(|| {
        schema
            .get("anyOf")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().find_map(cap))
    });
    ends_token && max.is_some_and(|m| m <= 20)
}

/// An assembler's mnemonic (a Game Boy reference's `gb_lookup_instruction`: "'ld hl,
/// imm16', 'bit', 'rst'"; benign 30), not a wallet's seed words.
fn instruction_mnemonic(tool: &str, prop: &str) -> bool {
    prop.eq_ignore_ascii_case("mnemonic")
        && identifier_parts(tool).iter().any(|w| {
            matches!(
                w.as_str(),
                "instruction"
                    | "instructions"
                    | "opcode"
                    | "opcodes"
                    | "asm"
                    | "assembly"
                    | "assembler"
            )
        })
}

/// The property holds a secret's name, not its value ("The name of the secret.").
fn names_a_secret(schema: &Value) -> bool {
    let Some(d) = schema.get("description").and_then(Value::as_str) else {
        return false;
    };
    let d = d.trim_start().to_ascii_lowercase();
    let d = d.strip_prefix("the ").unwrap_or(&d);
    ["name of ", "name or id of ", "id of ", "identifier of "]
        .iter()
        .any(|p| d.starts_with(p))
}

/// A token that the tool's or its own description calls a link token ("Expand a shortened
/// ref://<id> link token", Greenhouse's "Tracking link token string"): a handle for a URL,
/// not a credential.
fn link_token(prop: &str, about: &[String], schema: &Value) -> bool {
    let link = |w: &[String]| {
        w.windows(2).any(|w| {
            matches!(w[0].as_str(), "link" | "ref" | "url" | "tracking") && w[1] == "token"
        })
    };
    let p = identifier_parts(prop);
    (p == ["token"] && link(about))
        || (p.last().is_some_and(|w| w == "token") && link(&description_words(schema)))
}

/// A bare `credential` whose description picks one the server already holds ("credential
/// to use": Heroku's `pg_psql` takes the name of one of the database's credentials).
fn selects_stored(prop: &str, schema: &Value) -> bool {
    let p = identifier_parts(prop);
    if !matches!(
        p.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
        ["credential" | "credentials"]
    ) {
        return false;
    }
    let d = description_words(schema);
    let d: Vec<&str> = d.iter().map(String::as_str).collect();
    let d = d.strip_prefix(&["the"]).unwrap_or(&d);
    matches!(
        d,
        ["credential" | "credentials", "to", "use", ..]
            | ["credential" | "credentials", "name" | "id" | "alias", ..]
            | ["which", "credential" | "credentials", ..]
    )
}

/// An optional credential that only overrides one the server is configured with ("Logs in
/// to Discord using the configured token") or that the server asks the user for when it is
/// left out: the model is not asked for it unless the user gives it.
fn overrides_configured(prop: &str, schema: &Value, about: &[String]) -> bool {
    let Some(noun) = identifier_parts(prop).pop() else {
        return false;
    };
    // "… or a sudo password is configured for the server" (mcp-ssh-manager's
    // `ssh_execute_sudo`, session 24): the noun may stand just before the word too.
    let says = |w: &[String]| {
        w.iter().enumerate().any(|(i, x)| {
            matches!(
                x.as_str(),
                "configured" | "preconfigured" | "default" | "stored" | "saved" | "cached"
            ) && (w[i + 1..].iter().take(3).any(|y| *y == noun)
                || w[i.saturating_sub(2)..i].contains(&noun)
                    && !matches!(w[i - 1].as_str(), "not" | "never" | "t"))
        })
    };
    let own = description_words(schema);
    // "omit to have them requested from the user" (BrowserStack's login credentials).
    // "If not provided here and no env var is set, user will be prompted" (BioMCP).
    let left_out = own.iter().any(|w| w == "omit" || w == "omitted")
        || own.windows(2).any(|w| w[0] == "not" && w[1] == "provided");
    let omissible = left_out
        && own.iter().any(|w| {
            matches!(
                w.as_str(),
                "requested"
                    | "prompted"
                    | "asked"
                    | "configured"
                    | "default"
                    | "environment"
                    // "replaces existing if provided, preserved if omitted" (DigitalOcean).
                    | "preserved"
                    | "existing"
                    | "unchanged"
                    | "env"
            )
        });
    // "Omit to use cached session from sbox_open_login" (SeleniumBox, session 25): "omit"
    // and then, within a few words, a cached session, token or login.
    let cached = own.iter().enumerate().any(|(i, w)| {
        (w == "omit" || w == "omitted")
            && own[i + 1..].iter().take(6).enumerate().any(|(k, c)| {
                matches!(c.as_str(), "cached" | "stored" | "saved")
                    && own[i + 2 + k..].iter().take(2).any(|n| {
                        matches!(
                            n.as_str(),
                            "session" | "token" | "credential" | "credentials" | "login"
                        )
                    })
            })
    });
    // "Optional OpenFDA API key (overrides OPENFDA_API_KEY env var)" (BioMCP).
    // "Slack bot token … (or set SLACK_TOKEN env var)" (n0s1's scanners, benign 22).
    let overrides_env = (own.iter().any(|w| w == "overrides" || w == "override")
        || own.windows(2).any(|w| w[0] == "or" && w[1] == "set"))
        && own.iter().any(|w| w == "env" || w == "environment");
    omissible || cached || overrides_env || says(about) || says(&own)
}

fn description_words(schema: &Value) -> Vec<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(identifier_parts)
        .unwrap_or_default()
}

/// The password encrypts a file the tool writes (MikroTik's `save_backup`: `password`
/// beside `dont_encrypt`; benign 24): the tool's name names the file and the property or a
/// sibling says it encrypts.
fn encrypts_output(tool: &str, schema: &Value, props: &serde_json::Map<String, Value>) -> bool {
    let writes_file = identifier_parts(tool).iter().any(|w| {
        matches!(
            w.as_str(),
            "backup" | "backups" | "archive" | "zip" | "export" | "snapshot"
        )
    });
    let encrypt = |words: &[String]| {
        words
            .iter()
            .any(|w| matches!(w.as_str(), "encrypt" | "encrypted" | "encryption"))
    };
    writes_file
        && (encrypt(&description_words(schema))
            || props.keys().any(|k| encrypt(&identifier_parts(k))))
}

/// The password or passphrase of the document the tool handles (office-worker's
/// `pdf_manipulate` and `render_document`, `sign_pdf`'s key passphrase; benign 28): a
/// file's lock, not an account's login.
fn document_password(tool: &str, prop: &str, props: &serde_json::Map<String, Value>) -> bool {
    let document = identifier_parts(tool).iter().any(|w| {
        matches!(
            w.as_str(),
            "pdf"
                | "pdfs"
                | "docx"
                | "xlsx"
                | "pptx"
                | "document"
                | "documents"
                | "workbook"
                | "spreadsheet"
        )
    });
    // A bare `password`, or the file's own (`pdf_password`, `owner_password`); no account
    // beside it (`username`, `email`, `login`).
    let parts = identifier_parts(prop);
    let file_lock = match parts.as_slice() {
        [p] => matches!(p.as_str(), "password" | "passphrase"),
        [q, p] => {
            matches!(p.as_str(), "password" | "passphrase")
                && matches!(
                    q.as_str(),
                    "pdf" | "file" | "owner" | "open" | "encryption" | "key" | "document"
                )
        }
        _ => false,
    };
    let account = props.keys().any(|k| {
        identifier_parts(k).iter().any(|w| {
            matches!(
                w.as_str(),
                "username" | "user" | "email" | "login" | "account"
            )
        })
    });
    // RouterOS's `mikrotik_restore_backup` takes the backup file's password (benign 29).
    let restores_backup = identifier_parts(tool)
        .windows(2)
        .any(|p| p[0] == "restore" && matches!(p[1].as_str(), "backup" | "backups"));
    (document || restores_backup) && file_lock && !account
}

/// A key-derivation or hashing tool takes the password it derives from or hashes as its
/// input (mcp-cryptography's `pbkdf2_derive` and `scrypt_derive`: "Password to derive
/// from."; benign 29): the data it transforms, named for what it is.
fn derives_from(tool: &str, prop: &str) -> bool {
    let kdf = identifier_parts(tool).iter().any(|w| {
        matches!(
            w.as_str(),
            "pbkdf2" | "scrypt" | "argon2" | "argon2id" | "bcrypt" | "kdf" | "hkdf" | "derive"
        )
    });
    kdf && matches!(
        identifier_parts(prop).as_slice(),
        [p] if matches!(p.as_str(), "password" | "passphrase")
    )
}

/// A setup tool that says it stores the service's login ("Validate and persist FAOSTAT
/// credentials for automatic authentication across sessions": `faostat_setup`, benign 28):
/// the credential is what the tool exists to set. Not a login tool: signing in with the
/// account's password and keeping the session is still asking for it (algochains' `login_algochains`).
fn stores_own_login(tool: &str, about: &[String]) -> bool {
    let setup = identifier_parts(tool)
        .iter()
        .any(|w| matches!(w.as_str(), "setup" | "configure"));
    let head = &about[..about.len().min(8)];
    setup
        && head.iter().any(|w| {
            matches!(
                w.as_str(),
                "persist" | "persists" | "store" | "stores" | "save" | "saves"
            )
        })
        && head.iter().enumerate().any(|(k, w)| {
            // "persist FAOSTAT credentials": the service named, not "your credentials".
            matches!(w.as_str(), "credential" | "credentials" | "login")
                && k > 0
                && !matches!(
                    head[k - 1].as_str(),
                    "your" | "the" | "all" | "any" | "user"
                )
        })
}

/// One undescribed, optional field among many of a generated schema (GitLab's
/// `gitlab_get_users` and `gitlab_delete_user` list their model's 30 fields, `password`
/// among them; benign 24). A solicitation names the secret or asks few things: no published
/// attack's schema has more than 10 properties.
fn one_of_many_fields(schema: &Value, props: &serde_json::Map<String, Value>) -> bool {
    props.len() >= 15 && schema.get("description").is_none()
}

/// Kinds of secret that belong to a resource, not to the user: a pipeline *trigger* token,
/// a *webhook*'s or a *signing* token, an *upload*'s secret.
const RESOURCE_SECRETS: &[&str] = &[
    "trigger",
    "triggers",
    "webhook",
    "webhooks",
    "signing",
    "upload",
    "deploy",
    "runner",
    // A listing of runners filters by their registration token (GitLab's
    // `gitlab_get_runners`; benign 24).
    "runners",
    "registration",
    "invitation",
    "invite",
    "verification",
    "validation",
];

/// Kinds read only from a property's description, not from names (`join_meeting` asking for
/// an `api_key` still fails): "Swarm join token" (a container manager's `cm_docker_swarm`,
/// session 23), the swarm's token for a node to join it.
const DESCRIBED_RESOURCE_SECRETS: &[&str] = &["join"];

/// Resources whose token, named after them, is their id: a form's token is in the form's
/// public URL (monday.com's `formToken`). Read from the property's name only: `update_form`
/// asking for a `github_token` still fails.
const NAMED_RESOURCE_TOKENS: &[&str] = &["form", "forms", "survey", "surveys"];

/// The property is a resource's own secret: its name or the tool's name names the kind
/// (`signing_token`, `trigger_pipeline`'s `token`), or its description says whose it is
/// ("The 32-character secret of the upload").
fn resource_secret(tool: &str, prop: &str, schema: &Value) -> bool {
    let named = |s: &str| {
        identifier_parts(s)
            .iter()
            .any(|w| RESOURCE_SECRETS.contains(&w.as_str()))
    };
    let own_token = identifier_parts(prop)
        .windows(2)
        .any(|w| NAMED_RESOURCE_TOKENS.contains(&w[0].as_str()) && w[1] == "token");
    if named(tool) || named(prop) || own_token {
        return true;
    }
    let Some(desc) = schema.get("description").and_then(Value::as_str) else {
        return false;
    };
    let d = identifier_parts(desc);
    // "New access password" (Bitwarden's `edit_send`): the tool sets it.
    if d.first().is_some_and(|w| w == "new") {
        return true;
    }
    // "WordPress admin credentials" of a site the tool installs (Hostinger).
    let installs = identifier_parts(tool)
        .iter()
        .any(|w| matches!(w.as_str(), "install" | "setup" | "deploy" | "provision"));
    if installs
        && d.windows(2).any(|w| {
            matches!(w[0].as_str(), "admin" | "administrator")
                && matches!(w[1].as_str(), "credentials" | "password" | "login")
        })
    {
        return true;
    }
    d.windows(3).any(|t| {
        matches!(t[0].as_str(), "secret" | "token" | "password" | "key")
            && t[1] == "of"
            && matches!(t[2].as_str(), "the" | "this" | "that" | "an" | "a")
    }) || d.windows(4).any(|t| {
        // "The password for the WorkForm" (monday.com), not "the key for the API".
        matches!(t[0].as_str(), "secret" | "password" | "passphrase")
            && t[1] == "for"
            && matches!(t[2].as_str(), "the" | "this" | "that")
            && !matches!(
                t[3].as_str(),
                "api" | "service" | "account" | "user" | "server" | "database" | "login"
            )
    }) || d.windows(3).any(|t| {
        // The platform issues it for an event or a resource: Twilio's `CallToken`, "a
        // call_token is generated when an incoming call is received".
        matches!(t[0].as_str(), "is" | "are")
            && matches!(t[1].as_str(), "generated" | "issued")
            && matches!(t[2].as_str(), "when" | "for" | "after" | "on")
    }) || d.windows(2).any(|t| {
        (RESOURCE_SECRETS.contains(&t[0].as_str())
            || DESCRIBED_RESOURCE_SECRETS.contains(&t[0].as_str()))
            && matches!(t[1].as_str(), "token" | "secret" | "password" | "key")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;
    use serde_json::json;

    fn run(name: &str, props: Value) -> Vec<Finding> {
        let mut out = Vec::new();
        secrets(
            Some(&json!({"type": "object", "properties": props})),
            name,
            None,
            &mut out,
        );
        out
    }

    #[test]
    fn extended_names() {
        for n in [
            "auth",
            "Authorization",
            "openai_api_key",
            "OPENAI_API_KEY",
            "x-api-key",
            "stripeApiKey",
            "my_api_key",
            "client_secret",
            "webhookSecret",
            "aws_secret_access_key",
            "refresh_token",
            "github_token",
            "session_token",
            "id_token",
            "session_cookie",
            "cookies",
            "ssh_private_key",
            "seed_phrase",
            "mnemonic",
            "passphrase",
            "aws_credentials",
            "jwt",
            "bearer",
        ] {
            assert!(extended_secret_name(n), "{n}");
        }
        for n in [
            "api_keys",
            "author",
            "authentication",
            "next_token",
            "page_token",
            "max_tokens",
            "maximum_number_of_tokens",
            "secret_type",
            "secretType",
            "submitKey",
            "key",
            "sessionId",
            "user_password",
            "approval_password",
            "token_count",
            "resource_access_token_events",
            "tokens",
            "username",
        ] {
            assert!(!extended_secret_name(n), "{n}");
        }
    }

    #[test]
    fn original_names_fail_as_before_and_extended_ones_join_them() {
        let fs = run(
            "api_connector",
            json!({"api_key": {"type": "string"}, "openai_api_key": {"type": "string"}, "endpoint": {}}),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].status, Status::Fail);
        assert_eq!(
            fs[0].message,
            "Tool \"api_connector\" schema solicits secrets: api_key, openai_api_key"
        );
        assert_eq!(fs[0].actual, Some(json!(["api_key", "openai_api_key"])));
        // The original list reports whatever the type (decision #15: at least its findings),
        // a flag or a number as a warning; the extension skips what cannot hold text.
        let fs = run(
            "usage",
            json!({"byApiKey": {"type": "boolean"}, "token": {"type": "boolean"}}),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].status, Status::Warn);
        assert_eq!(fs[0].actual, Some(json!(["token"])));
    }

    #[test]
    fn a_credential_the_tool_sets_is_a_warning() {
        // MongoDB's atlas-create-db-user: the one false positive on real servers.
        for (tool, props) in [
            (
                "atlas-create-db-user",
                json!({"projectId": {"type": "string"}, "username": {"type": "string"}, "password": {"type": "string"}}),
            ),
            ("reset_password", json!({"password": {"type": "string"}})),
            (
                "create_webhook",
                json!({"token": {"type": "string", "description": "Secret token to validate received payloads."}}),
            ),
            (
                "update_dependency_proxy_settings",
                json!({"secret": {"type": "string"}}),
            ),
            ("trigger_pipeline", json!({"token": {"type": "string"}})),
            (
                "download_attachment",
                json!({"secret": {"type": "string", "description": "The 32-character secret of the upload"}}),
            ),
            ("x", json!({"signing_token": {"type": "string"}})),
        ] {
            let fs = run(tool, props);
            assert_eq!(fs.len(), 1, "{tool}");
            assert_eq!(fs[0].status, Status::Warn, "{tool}");
            assert!(fs[0].message.contains("warning only"), "{}", fs[0].message);
        }
        // Logging in with the user's credentials, or calling an API with them, still fails.
        for (tool, props) in [
            (
                "login_helper",
                json!({"username": {}, "secret": {}, "auth_token": {}}),
            ),
            ("api_connector", json!({"api_key": {}, "password": {}})),
            (
                "get_weather",
                json!({"api_key": {"type": "string", "description": "User stored OpenWeatherMap API key"}}),
            ),
            ("create_issue", json!({"access_token": {"type": "string"}})),
        ] {
            let fs = run(tool, props);
            assert_eq!(fs.len(), 1, "{tool}");
            assert_eq!(fs[0].status, Status::Fail, "{tool}");
        }
    }

    fn status_of(tool: &str, about: &str, schema: Value) -> Vec<Status> {
        let mut out = Vec::new();
        secrets(Some(&schema), tool, Some(about), &mut out);
        out.iter().map(|f| f.status).collect()
    }

    /// Session 32 (benign 27): handles another call hands out warn; a login's token fails.
    /// Benign 28 (session 33): a document's password and a setup tool that stores its own
    /// service's login warn; the same property elsewhere still fails.
    #[test]
    fn document_passwords_and_stored_logins_are_a_warning() {
        let pw = json!({"type": "object", "properties": {"password": {"type": "string"}}});
        assert_eq!(
            status_of(
                "pdf_manipulate",
                "Manipulates PDF documents: merge, split, rotate.",
                pw.clone()
            ),
            [Status::Warn]
        );
        let pp = json!({"type": "object", "properties": {"passphrase": {"type": "string"}, "key_pem": {"type": "string"}}});
        assert_eq!(
            status_of("sign_pdf", "Signs a PDF with a PAdES signature.", pp),
            [Status::Warn]
        );
        assert_eq!(
            status_of("get_weather", "Returns the weather.", pw.clone()),
            [Status::Fail]
        );
        let key = json!({"type": "object", "properties": {"api_key": {"type": "string"}}});
        assert_eq!(status_of("read_pdf", "Reads a PDF.", key), [Status::Fail]);
        // A reviewer's bypasses (session 33): an account's password beside a document, three
        // secrets under a setup name.
        let gmail = json!({"type": "object", "properties": {"username": {"type": "string"}, "password": {"type": "string"}}});
        assert_eq!(
            status_of(
                "share_document",
                "Emails a document from your account.",
                gmail
            ),
            [Status::Fail]
        );
        let three = json!({"type": "object", "required": ["password", "token", "ssh_private_key"],
            "properties": {"password": {"type": "string"}, "token": {"type": "string"}, "ssh_private_key": {"type": "string"}}});
        assert!(status_of(
            "github_setup",
            "Store your GitHub credentials so later tools work.",
            three
        )
        .contains(&Status::Fail));
        let login = json!({"type": "object", "required": ["username", "password"],
            "properties": {"username": {"type": "string"}, "password": {"type": "string"}}});
        assert_eq!(status_of("faostat_setup", "Validate and persist FAOSTAT credentials for automatic authentication across sessions.", login.clone()), [Status::Warn]);
        assert_eq!(status_of("faostat_query", "Validate and persist FAOSTAT credentials for automatic authentication across sessions.", login.clone()), [Status::Fail]);
        assert_eq!(
            status_of(
                "faostat_setup",
                "Set up the FAOSTAT client and download the catalogue.",
                login
            ),
            [Status::Fail]
        );
    }

    /// Benign 29 (session 34): a REST tool that puts a configuration or posts a user sets
    /// its password; a `*_key` called an identifier is a record's key. A login and an API
    /// key still fail.
    #[test]
    fn rest_setters_and_identifier_keys_are_a_warning() {
        let pw = json!({"type": "object", "properties": {"password": {"type": "string"}}});
        for tool in ["put_ftp_config", "post_vpn_user", "post_vpn_client_config"] {
            assert_eq!(
                status_of(tool, "Update the FtpConfig", pw.clone()),
                [Status::Warn],
                "{tool}"
            );
        }
        for tool in [
            "post_auth_login",
            "put_user_session",
            "post_message",
            "get_ftp_config",
        ] {
            assert_eq!(
                status_of(tool, "Calls the API.", pw.clone()),
                [Status::Fail],
                "{tool}"
            );
        }
        let id = |d: &str| json!({"type": "object", "properties": {"session_key": {"type": "string", "description": d}}});
        assert_eq!(
            status_of(
                "get_laps",
                "Query lap data.",
                id("Unique identifier for the session. Use \"latest\" for the most recent.")
            ),
            [Status::Warn]
        );
        assert_eq!(
            status_of(
                "get_laps",
                "Query lap data.",
                id("The session key of your account.")
            ),
            [Status::Fail]
        );
        assert_eq!(
            status_of(
                "get_laps",
                "Query lap data.",
                id("Your session key for the login; it acts as your identifier.")
            ),
            [Status::Fail]
        );
        assert!(!identifier_key(
            "api_key",
            &json!({"description": "Unique identifier key of your account"})
        ));
    }

    #[test]
    fn tokens_other_calls_hand_out_are_a_warning() {
        let one = |prop: &str, desc: &str| {
            let schema = json!({"type": "object", "required": [prop],
                "properties": {prop: {"type": "string", "description": desc}}});
            status_of("get_status", "Get the status.", schema)
        };
        assert_eq!(
            one("pipeline_token", "Pipeline token returned from upload_data"),
            [Status::Warn]
        );
        assert_eq!(
            one(
                "explained_token",
                "Explained token from explain() to ensure exact properties"
            ),
            [Status::Warn]
        );
        assert_eq!(
            one("pipeline_token", "UUID for a single ingestion job."),
            [Status::Warn]
        );
        assert_eq!(
            one(
                "session_token",
                "Optional client session token; if omitted, one is generated"
            ),
            [Status::Warn]
        );
        assert_eq!(
            one("access_token", "AAL2 access token from verify_mfa response"),
            [Status::Fail]
        );
        assert_eq!(
            one(
                "pipeline_token",
                "The pipeline token from your account settings"
            ),
            [Status::Fail]
        );
        assert_eq!(one("user_token", "Token from the user"), [Status::Fail]);
        assert_eq!(
            one("github_token", "Personal access token issued by GitHub"),
            [Status::Fail]
        );
        assert_eq!(
            one("gh_token", "Token from GITHUB_TOKEN env var"),
            [Status::Fail]
        );
        assert_eq!(
            one("session_token", "Session token returned by the login tool"),
            [Status::Fail]
        );
        assert_eq!(
            one(
                "request_token",
                "The request_token returned from the long running operation"
            ),
            [Status::Warn]
        );
    }

    #[test]
    fn a_stored_or_configured_credential_or_a_platform_token_is_a_warning() {
        // The three shapes of session 12's blind capture, each beside the neighbour that
        // still fails.
        let props = |p: Value| json!({"type": "object", "properties": p});
        let with_required =
            |p: Value, r: Value| json!({"type": "object", "properties": p, "required": r});
        let pick = json!({"credential": {"type": "string", "description": "credential to use"}});
        assert_eq!(
            status_of("pg_psql", "Execute SQL queries", props(pick)),
            [Status::Warn]
        );
        let raw =
            json!({"credential": {"type": "string", "description": "Database password or key"}});
        assert_eq!(
            status_of("pg_psql", "Execute SQL queries", props(raw)),
            [Status::Fail]
        );
        let key_to_use = json!({"api_key": {"type": "string", "description": "API key to use"}});
        assert_eq!(
            status_of("search", "Search", props(key_to_use)),
            [Status::Fail]
        );

        let token = json!({"token": {"type": "string"}});
        let configured = "Logs in to Discord using the configured token";
        assert_eq!(
            status_of("discord_login", configured, props(token.clone())),
            [Status::Warn]
        );
        assert_eq!(
            status_of(
                "discord_login",
                configured,
                with_required(token.clone(), json!(["token"]))
            ),
            [Status::Fail]
        );
        assert_eq!(
            status_of(
                "discord_login",
                "Logs in to Discord with a bot token",
                props(token)
            ),
            [Status::Fail]
        );
        let override_key =
            json!({"api_key": {"type": "string", "description": "Overrides the default API key"}});
        assert_eq!(
            status_of("search", "Search", props(override_key)),
            [Status::Warn]
        );

        let omit = json!({"credentials": {"type": "object", "description": "Login credentials; omit to have them requested from the user."}});
        assert_eq!(
            status_of("createLCASteps", "Generate steps", props(omit.clone())),
            [Status::Warn]
        );
        assert_eq!(
            status_of(
                "createLCASteps",
                "Generate steps",
                with_required(omit, json!(["credentials"]))
            ),
            [Status::Fail]
        );
        let form = json!({"formToken": {"type": "string"}});
        assert_eq!(
            status_of("update_form", "Update a form.", props(form.clone())),
            [Status::Warn]
        );
        let pw = |d: &str| props(json!({"password": {"type": "string", "description": d}}));
        assert_eq!(
            status_of("submit", "Submit.", pw("The password for the WorkForm.")),
            [Status::Warn]
        );
        assert_eq!(
            status_of("submit", "Submit.", pw("The password for the account.")),
            [Status::Fail]
        );
        let github = json!({"github_token": {"type": "string"}});
        assert_eq!(
            status_of("update_form", "Update a form.", props(github)),
            [Status::Fail]
        );
        let auth = json!({"auth": {"type": "object"}, "cookies": {"type": "string"}});
        assert_eq!(
            status_of(
                "createCollectionRequest",
                "Creates a request in a collection.",
                props(auth.clone())
            ),
            [Status::Warn]
        );
        assert_eq!(
            status_of("runCollection", "Runs a collection.", props(auth)),
            [Status::Fail]
        );

        let issued = json!({"CallToken": {"type": "string", "description": "A token string needed to invoke a forwarded call. A call_token is generated when an incoming call is received."}});
        assert_eq!(
            status_of("CreateCall", "Create a call", props(issued)),
            [Status::Warn]
        );
        let users = json!({"CallToken": {"type": "string", "description": "The user's token, needed to place the call."}});
        assert_eq!(
            status_of("CreateCall", "Create a call", props(users)),
            [Status::Fail]
        );
    }

    #[test]
    fn mixed_tool_gets_one_finding_of_each() {
        let fs = run(
            "rotate_key",
            json!({"api_key": {"type": "string"}, "new_key": {"type": "string"}}),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].status, Status::Warn);
        assert_eq!(fs[0].actual, Some(json!(["api_key"])));
        let fs = run(
            "sync",
            json!({"api_key": {}, "signing_token": {"type": "string"}}),
        );
        let st: Vec<Status> = fs.iter().map(|f| f.status).collect();
        assert_eq!(st, [Status::Fail, Status::Warn]);
    }
}
