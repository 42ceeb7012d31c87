package danger

// families are the kinds of tools judged by their name when the table
// does not name them (see families.go). Each member reads the files it is
// given and reports; the flags that make one write or run are screened.
func families() []family {
	return []family{
		{
			// Binary inspectors: they print what an object file holds.
			// objcopy and strip rewrite their operands; ldd may run the
			// program: none is here.
			rule: &rule{class: Safe, why: "inspects binaries", check: (*walker).readerFlags},
			names: "nm objdump readelf size addr2line c++filt cxxfilt otool dwarfdump readobj " +
				"pahole bloaty gprof elfls checksec symbolizer",
		},
		{
			// Graph and diagram renderers: a source in, a picture on
			// standard output or in the -o file.
			rule:  &rule{class: Safe, why: "renders a graph or diagram", check: (*walker).readerFlags},
			names: "dot neato twopi circo fdp sfdp patchwork osage gc acyclic tred unflatten ccomps mmdc pikchr",
		},
		{
			// Document and media inspectors: they print what a file holds.
			rule:  &rule{class: Safe, why: "inspects a document or media file", check: (*walker).readerFlags},
			names: "pdfinfo pdffonts ffprobe mediainfo identify",
		},
		{
			// Linters and checkers: they read the project and report; a
			// project's config may load its own plugins, and --fix
			// rewrites, both in the workspace.
			rule: &rule{class: Dev, why: "lints or checks the project", check: (*walker).readerFlags},
			names: "cppcheck clang-tidy checkmake vale codespell typos cspell tfsec checkov semgrep " +
				// Scanners of manifests, dependencies and images for
				// problems and vulnerabilities (their databases are fetched).
				"kubeconform kubeval conftest kube-score kube-linter polaris trivy grype syft osv-scanner " +
				"pip-audit safety bandit npm-audit-resolver dependency-check " +
				"sqlfluff bashate luacheck selene clj-kondo detekt checkstyle pmd spotbugs phpstan psalm phpcs " +
				"phpmd spectral hlint shellharden htmlhint editorconfig-checker misspell lychee " +
				"markdown-link-check",
			suffixes: "lint",
		},
		{
			// Build systems: they run the project's build in the
			// workspace; installing, deploying and destroying are not.
			rule: &rule{
				class: Dev,
				why:   buildWhy,
				check: (*walker).readerFlags,
				ops: []flag{
					raise("install uninstall", Dangerous, "installs outside the workspace"),
					raise("deploy* publish* release* upload* push*", Dangerous, "publishes or deploys"),
					destroys("runs a target whose name says it destroys data"),
				},
			},
			names: "dune scons waf buck buck2 pants mill xmake premake5 gn b2 bjam qmake tup redo " +
				"earthly nix-build ocamlbuild rebar3 elm-make " +
				// Task runners and test runners of the project.
				"doit phpunit pest bats gotestsum ginkgo behave robot busted prove jasmine codeceptjs " +
				// Indexers, documentation and coverage reports of the
				// project's code.
				"ctags cscope gtags doxygen godoc pkgsite lcov genhtml gcovr benchstat pprof flamegraph.pl " +
				"git-sizer git-cliff plz autoreconf autoconf autoheader aclocal automake libtoolize cpack",
		},
		{
			// Formatters: they rewrite the files they are given (or print
			// a check): judged by where those files are.
			rule: &rule{class: Dev, why: "formats the project's code", write: writeAll,
				check: (*walker).readerFlags,
				flags: []flag{set("--check --dry-run --lint --validate --diff -l --list-different", Safe,
					"checks formatting")},
				stdout: "--check --dry-run --lint --validate --diff -l --list-different"},
			names: "swiftformat ormolu elm-format php-cs-fixer rector sqlfmt pg_format cljfmt fantomas scalafmt " +
				"ktfmt google-java-format nixfmt alejandra buildifier dfmt",
		},
	}
}
