package eval

import "sort"

// sortStrings sorts as bash lists names: byte order.
func sortStrings(s []string) { sort.Strings(s) }
