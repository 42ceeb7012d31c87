// Package danger classifies a shell string as safe, dev, dangerous or
// blocked by parsing it and judging every command it would run.
//
// [Classify] parses with [syntax.LangBash] and walks the whole tree: lists,
// pipelines, subshells, bodies of if/for/while/case and of functions at
// their calls, command and process substitutions wherever they stand,
// redirections, the code of bash -c, eval, trap, su -c, find -exec, xargs
// and wrappers such as sudo or timeout. Words are resolved as bash would
// resolve them, by the package's own expansion (quotes, $'…', ~, braces,
// parameter operators, arithmetic, printf, here-documents, values
// assigned earlier in the string, path normalisation); a value that
// cannot be known is taken for the worst.
// What each command does is data, in the table of rules.go and its
// domains (rules_git.go, rules_pkg.go …).
//
// [Guard] applies the same judgement at run time to the argv and files a
// shell really executes and opens (checks the caller wraps around its
// evaluator, which this package does not import); [Scope] and [Rule] are the
// narrow approvals behind the "always" answer; [RunCLI] is
// `qsh --classify`.
package danger
