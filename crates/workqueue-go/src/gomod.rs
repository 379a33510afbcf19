//! What a go.mod says of controller-runtime: the version required, or the
//! one a `replace` directive puts in its place (a replace wins, as `go
//! build` takes it). Directives one per line or in blocks, comments and
//! any white space, as the go.mod reference writes them.

const CONTROLLER_RUNTIME: &str = "sigs.k8s.io/controller-runtime";

/// controller-runtime as a go.mod has it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Version {
    /// `v0.N.x`, with the line (from 1) that says so.
    Minor { line: usize, minor: u32 },
    /// Replaced by a directory, or a version that names no release: the
    /// line, and what it says.
    Unknown { line: usize, said: String },
}

/// The minor version of `v0.N.x` (a pre-release too).
fn minor_of(v: &str) -> Option<u32> {
    let minor: u32 = v
        .strip_prefix("v0.")?
        .split(['.', '-'])
        .next()?
        .parse()
        .ok()?;
    (minor > 0).then_some(minor)
}

/// controller-runtime's version in `gomod`, if it names controller-runtime.
pub(crate) fn controller_runtime(gomod: &str) -> Option<Version> {
    let mut required = None;
    let mut replaced = None;
    let mut block: Option<&str> = None;
    for (i, raw) in crate::paste::without_bom(gomod).lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let (directive, rest) = match (block, words.as_slice()) {
            (Some(_), [")"]) => {
                block = None;
                continue;
            }
            (Some(b), rest) => (b, rest),
            (None, [d @ ("require" | "replace"), "("]) => {
                block = Some(d);
                continue;
            }
            (None, [d, rest @ ..]) => (*d, rest),
            (None, []) => continue,
        };
        let line = i + 1;
        match (directive, rest) {
            ("require", [path, v, ..]) if *path == CONTROLLER_RUNTIME => {
                required = Some(match minor_of(v) {
                    Some(minor) => Version::Minor { line, minor },
                    None => Version::Unknown {
                        line,
                        said: v.to_string(),
                    },
                })
            }
            ("replace", words) if words.first() == Some(&CONTROLLER_RUNTIME) => {
                let Some(arrow) = words.iter().position(|w| *w == "=>") else {
                    continue;
                };
                replaced = Some(match &words[arrow + 1..] {
                    [_, v] => match minor_of(v) {
                        Some(minor) => Version::Minor { line, minor },
                        None => Version::Unknown {
                            line,
                            said: v.to_string(),
                        },
                    },
                    [dir] => Version::Unknown {
                        line,
                        said: format!("replaced by the directory {dir}"),
                    },
                    _ => continue,
                });
            }
            _ => {}
        }
    }
    replaced.or(required)
}

/// Which Crossplane a go.mod belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Crossplane {
    /// `module github.com/crossplane/crossplane/v2`: Crossplane core itself.
    Core { line: usize },
    /// A module requiring `github.com/crossplane/crossplane-runtime`: a
    /// provider (or a function) built on it.
    Runtime { line: usize },
}

/// Whether `path` is `base` or `base/vN`.
fn is_module(path: &str, base: &str) -> bool {
    path.strip_prefix(base).is_some_and(|rest| {
        rest.is_empty()
            || rest
                .strip_prefix("/v")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Crossplane core, or a program on crossplane-runtime, as `gomod` says.
pub(crate) fn crossplane(gomod: &str) -> Option<Crossplane> {
    let mut runtime = None;
    let mut in_require = false;
    for (i, raw) in crate::paste::without_bom(gomod).lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let path = match (in_require, words.as_slice()) {
            (true, [")"]) => {
                in_require = false;
                continue;
            }
            (true, [path, ..]) => *path,
            (false, ["require", "("]) => {
                in_require = true;
                continue;
            }
            (false, ["module", path]) if is_module(path, "github.com/crossplane/crossplane") => {
                return Some(Crossplane::Core { line: i + 1 });
            }
            (false, ["require", path, ..]) => *path,
            _ => continue,
        };
        if runtime.is_none() && is_module(path, "github.com/crossplane/crossplane-runtime") {
            runtime = Some(Crossplane::Runtime { line: i + 1 });
        }
    }
    runtime
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossplane_core_or_a_program_on_crossplane_runtime() {
        let core = "module github.com/crossplane/crossplane/v2\n\nrequire (\n\tgithub.com/crossplane/crossplane-runtime/v2 v2.2.0\n)\n";
        assert_eq!(crossplane(core), Some(Crossplane::Core { line: 1 }));
        let provider = "module github.com/acme/provider-x\n\nrequire (\n\tk8s.io/api v0.35.0\n\tgithub.com/crossplane/crossplane-runtime/v2 v2.4.0 // indirect\n)\n";
        assert_eq!(crossplane(provider), Some(Crossplane::Runtime { line: 5 }));
        let one = "module x\nrequire github.com/crossplane/crossplane-runtime v1.20.0\n";
        assert_eq!(crossplane(one), Some(Crossplane::Runtime { line: 2 }));
        // A look-alike is neither.
        let other = "module github.com/crossplane/crossplane-contrib/x\nrequire github.com/crossplane/crossplane-runtime-fork v1.0.0\n";
        assert_eq!(crossplane(other), None);
    }

    #[test]
    fn a_replace_wins_over_the_requirement() {
        let m = "module x\n\nrequire (\n\tsigs.k8s.io/controller-runtime v0.22.4 // indirect\n)\n\nreplace sigs.k8s.io/controller-runtime v0.22.4 => sigs.k8s.io/controller-runtime v0.23.1\n";
        assert_eq!(
            controller_runtime(m),
            Some(Version::Minor { line: 7, minor: 23 })
        );
        let block = "module x\nrequire sigs.k8s.io/controller-runtime v0.23.0\nreplace (\n\tsigs.k8s.io/controller-runtime => github.com/fork/controller-runtime v0.21.0\n)\n";
        assert_eq!(
            controller_runtime(block),
            Some(Version::Minor { line: 4, minor: 21 })
        );
        let dir = "module x\nrequire sigs.k8s.io/controller-runtime v0.23.0\nreplace sigs.k8s.io/controller-runtime => ../controller-runtime\n";
        assert!(matches!(
            controller_runtime(dir),
            Some(Version::Unknown { line: 3, .. })
        ));
    }

    #[test]
    fn a_bom_tabs_and_comments_are_read() {
        let m = "\u{feff}module\texample.com/x\n\ngo 1.24\n\nrequire (\n\tk8s.io/client-go v0.34.0\n\tsigs.k8s.io/controller-runtime\tv0.21.0\n)\n";
        assert_eq!(
            controller_runtime(m),
            Some(Version::Minor { line: 7, minor: 21 })
        );
        // A replace of another module with controller-runtime's version
        // says nothing of controller-runtime.
        let other = "module x\nrequire sigs.k8s.io/controller-runtime v0.20.0\nreplace k8s.io/api => k8s.io/api v0.23.1\n";
        assert_eq!(
            controller_runtime(other),
            Some(Version::Minor { line: 2, minor: 20 })
        );
        assert_eq!(controller_runtime("module x\n"), None);
    }
}
