//! From Go files to a scenario: the files are parsed, then run as Go runs
//! them (see [`crate::interp`]): flags take their defaults, values travel
//! through variables, parameters and fields, and the controllers are
//! those the program builds when it runs, with the clients it makes. What
//! was built becomes the scenario (`import/scenario.rs`).

use serde::Serialize;
use workqueue_core::Scenario;

use crate::gomod::Version;
use crate::interp::Interp;
use crate::paste::{is_go_mod, pieces, without_bom, Piece};
use crate::source::Source;

mod scenario;

use crate::found::Found;

/// The most Go read at once, all files together (a provider's set-up is a
/// few hundred kilobytes at most).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;
/// Objects each imported controller is given: the code does not say.
const OBJECTS: u64 = 100;

/// A scenario read from Go, with what was taken and what was not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Imported {
    pub scenario: Scenario,
    /// Every value taken, where it was written.
    pub taken: Vec<Found>,
    /// What the reader met and did not understand, and what it assumed.
    pub unread: Vec<Found>,
    /// Each client the program makes from a config, with its limit.
    pub clients: Vec<Client>,
}

/// A client-go client made from a `rest.Config`, and its limiter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Client {
    /// The call that made it (`kubernetes.NewForConfig`).
    pub what: String,
    /// Its limit, when it has one the reader knows.
    pub qps: Option<f64>,
    pub burst: Option<i64>,
    /// `group-version` (a typed clientset with QPS unset: one bucket per
    /// API group-version), `clientset` (one bucket), `shared` (the
    /// config's `RateLimiter`, shared with every client of it), `none`
    /// (QPS below 0), `unknown`.
    pub per: String,
    pub file: String,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("{file}: line {line}: not Go this reader can parse: {reason}")]
    Parse {
        file: String,
        line: usize,
        reason: String,
    },
    #[error("{file}: the set-up reads as a scenario that cannot run: {reason}")]
    Unusable { file: String, reason: String },
    #[error("the files hold {bytes} bytes: at most {MAX_BYTES} are read")]
    TooBig { bytes: usize },
    #[error("{file}: line {line}: the set-up asks more work than the reader does: its budget of {limit} evaluation steps ran out here")]
    Budget {
        file: String,
        line: usize,
        limit: u64,
    },
    #[error("no controller found: the reader runs the program from main (or each function nothing calls) and looks for ctrl.NewControllerManagedBy(…), controller.New(…) and client-go's rate-limiting queues (workqueue.NewTypedRateLimitingQueue(…), NewNamedRateLimitingQueue(…), …)")]
    NoController,
    #[error("no controller found: the program calls functions of its own packages whose files were not given, and the reader cannot follow them: {}{}. Add those packages' files (or import the module's folder)", .calls.join("; "), if *.more > 0 { format!("; and {} more", .more) } else { String::new() })]
    NotGiven {
        /// Each call, where, and its package (at most [`MAX_NOT_GIVEN_SAID`]).
        calls: Vec<String>,
        /// How many more there are.
        more: usize,
    },
}

/// Calls into packages not given that an error names at most.
pub(crate) const MAX_NOT_GIVEN_SAID: usize = 10;

/// Reads `files` (name, text) into a scenario.
pub fn import(files: &[(String, String)]) -> Result<Imported, ImportError> {
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    if bytes > MAX_BYTES {
        return Err(ImportError::TooBig { bytes });
    }
    // Each file's pieces; a go.mod pasted among Go files is a piece too.
    let all: Vec<(&String, Piece)> = files
        .iter()
        .flat_map(|(name, text)| {
            let split = match name.ends_with("go.mod") {
                true => vec![(without_bom(text).to_string(), 0)],
                false => pieces(text),
            };
            split.into_iter().map(move |p| (name, p))
        })
        .collect();
    // go.mod says which controller-runtime: before v0.23, client-go's
    // queue is the default.
    let module = all
        .iter()
        .filter(|(_, (text, _))| is_go_mod(text))
        .find_map(|(name, (text, offset))| {
            let at = |line: usize| (line as isize + offset) as usize;
            crate::gomod::controller_runtime(text).map(|v| match v {
                Version::Minor { line, minor } => ((*name).clone(), at(line), Ok(minor)),
                Version::Unknown { line, said } => ((*name).clone(), at(line), Err(said)),
            })
        });
    // And whether it is Crossplane core, or a program on crossplane-runtime.
    let crossplane_module = all
        .iter()
        .filter(|(_, (text, _))| is_go_mod(text))
        .find_map(|(name, (text, offset))| {
            let at = |line: usize| (line as isize + offset) as usize;
            crate::gomod::crossplane(text).map(|c| match c {
                crate::gomod::Crossplane::Core { line } => ((*name).clone(), at(line), true),
                crate::gomod::Crossplane::Runtime { line } => ((*name).clone(), at(line), false),
            })
        });
    let parsed: Vec<Result<Source, ImportError>> = all
        .iter()
        .filter(|(_, (text, _))| !is_go_mod(text))
        .map(|(name, (text, offset))| {
            Source::parse(name, text, *offset).map_err(|(line, reason)| ImportError::Parse {
                file: (*name).clone(),
                line,
                reason,
            })
        })
        .collect();
    // A file nested deeper than the reader reads is left out, and said,
    // when others are read (a generated or an unrelated file of a big
    // project); alone, it is refused. It is never parsed either way.
    let others = parsed.iter().filter(|p| p.is_ok()).count();
    let mut skipped = Vec::new();
    let mut sources = Vec::new();
    for p in parsed {
        match p {
            Ok(s) => sources.push(s),
            Err(ImportError::Parse { file, line, reason })
                if others > 0 && reason.starts_with("nested too deep") =>
            {
                skipped.push(Found {
                    file,
                    line,
                    text: format!("not read: {reason}; the file is left out"),
                });
            }
            Err(e) => return Err(e),
        }
    }
    if sources.is_empty() {
        return Err(ImportError::NoController);
    }
    let mut it = Interp::new(&sources);
    it.run();
    if let Some((file, p)) = it.out_of_steps {
        let (file, line) = it.at(file, p);
        return Err(ImportError::Budget {
            file,
            line,
            limit: crate::interp::MAX_STEPS,
        });
    }
    it.unread.extend(skipped);
    let mut r = Reader {
        it,
        module,
        crossplane_module,
    };
    r.version_note();
    r.scenario()
}

/// What the run of the set-up built, and what go.mod says.
pub(crate) struct Reader<'a> {
    pub(crate) it: Interp<'a>,
    /// controller-runtime's minor version (or what go.mod said instead).
    pub(crate) module: Option<(String, usize, Result<u32, String>)>,
    /// go.mod's file and line when it is Crossplane core's (`true`) or
    /// requires crossplane-runtime (`false`).
    pub(crate) crossplane_module: Option<(String, usize, bool)>,
}

impl Reader<'_> {
    fn version_note(&mut self) {
        match self.module.clone() {
            Some((file, line, Ok(minor))) => self.it.taken.push(Found {
                file,
                line,
                text: format!(
                    "controller-runtime v0.{minor}: {}",
                    if minor < 23 {
                        "client-go's queue unless UsePriorityQueue says otherwise (the priority queue is the default from v0.23)"
                    } else {
                        "the priority queue unless UsePriorityQueue says otherwise"
                    }
                ),
            }),
            Some((file, line, Err(said))) => self.it.unread.push(Found {
                file,
                line,
                text: format!("controller-runtime {said}: which release this is is not known; the priority queue (the default from v0.23) unless UsePriorityQueue says otherwise"),
            }),
            None => {}
        }
    }

    /// go.mod's controller-runtime minor version, when it says one.
    pub(crate) fn minor(&self) -> Option<u32> {
        match &self.module {
            Some((_, _, Ok(m))) => Some(*m),
            _ => None,
        }
    }
}
