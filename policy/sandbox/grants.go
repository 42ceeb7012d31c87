package sandbox

import (
	"io/fs"
	"path/filepath"
)

// readGrants is how "everything but deny" is granted where the kernel can
// only grant (Landlock): the directories and files to allow reading,
// found by walking down from / along the paths to the denied ones and
// granting every entry beside them. New entries in those directories,
// made later, stay unreadable. readDir lists a directory.
//
// Links are left out: the kernel judges a link by where it leads, and
// granting one (opening it follows it) would grant its target, which may
// be a secret.
func readGrants(deny []string, readDir func(string) ([]fs.DirEntry, error)) (dirs, files []string) {
	if len(deny) == 0 {
		return []string{"/"}, nil
	}
	denied := map[string]bool{}
	above := map[string]bool{} // the directories that hold a denied path
	for _, d := range deny {
		denied[d] = true
		for p := filepath.Dir(d); !above[p]; p = filepath.Dir(p) {
			above[p] = true
			if p == "/" {
				break
			}
		}
	}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := readDir(dir)
		if err != nil {
			return // what cannot be listed cannot be granted: left unreadable
		}
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			switch {
			case denied[p]:
			case above[p]:
				walk(p)
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				dirs = append(dirs, p)
			default:
				files = append(files, p)
			}
		}
	}
	walk("/")
	return dirs, files
}
