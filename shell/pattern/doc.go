// Package pattern is bash's pattern matching and pathname expansion: the
// patterns of case, [[ == ]], ${x#p} and ${x/p/r} ([Compile],
// [Pattern.Match], [Pattern.Prefix], [Pattern.Suffix], [Pattern.Find],
// [Pattern.Replace]), extglob's groups and nocasematch included, and the
// expansion of a word into file names ([Glob]) with dotglob, globstar,
// nocaseglob, globskipdots and GLOBIGNORE.
//
// A pattern compiles to a nondeterministic automaton that runs over the
// subject once, so a match costs time linear in the subject whatever the
// pattern (bash backtracks, and *(*(a))b takes it exponential time); a
// !(…) group runs its own automaton from each position it is reached at,
// which can make a run quadratic, never worse.
//
// Behaviour follows bash 5.2 under a UTF-8 locale, and the tests check it
// against bash itself. Where bash 5.2 gives answers its manual does not
// explain, accidents of its backtracking (a group right after a *, the
// shortcuts of its ${x/p/r}), the package follows the manual; TestBashBugs
// lists those.
package pattern
