package eval

import "testing"

// A redirection's file is opened as the kernel walks its path: ".." after
// a link goes up from where the link leads, not back over the link.
func TestRedirectPathAgainstBash(t *testing.T) {
	const tree = "mkdir -p a/b && ln -s a/b l && "
	checkAgainstBash(t, []bashCase{
		{"write", tree + "echo x > l/../y; cat a/y; [ -e y ] || echo not-here"},
		{"append", tree + "echo x > a/y; echo z >> l/../y; cat a/y"},
		{"read", tree + "echo x > a/y; cat < l/../y; read -r v < l/../y; echo $v"},
		{"readwrite", tree + "echo x > a/y; cat 3<> l/../y <&3"},
		{"both", tree + "ls l/../nope &> l/../err; cat a/err | wc -l"},
		{"noclobber", tree + "echo x > a/y; set -C; echo z > l/../y; cat a/y"},
		{"subst", tree + "echo x > a/y; echo \"$(< l/../y)\""},
		{"dot", tree + "echo x > ./l/./../y; cat a/y"},
	})
}
