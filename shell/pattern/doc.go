// Package pattern is bash's pattern matching and pathname expansion: the
// patterns of case, [[ == ]], ${x#p} and ${x/p/r} ([Compile], [Pattern.Match],
// [Pattern.Prefix], [Pattern.Suffix], [Pattern.Find], [Pattern.Replace]),
// extglob's groups and nocasematch included, and the expansion of a word into
// file names ([Glob]) with dotglob, globstar, nocaseglob, globskipdots and
// GLOBIGNORE.
//
// Patterns compile to a nondeterministic automaton run over the subject once
// (a !(…) group runs its own automaton from each position it is reached at),
// so no pattern takes exponential time. Behaviour follows bash 5.2 under a
// UTF-8 locale, checked against bash itself by the package's tests; where
// bash's results are accidents of its implementation the package's comments
// say what was kept.
package pattern
