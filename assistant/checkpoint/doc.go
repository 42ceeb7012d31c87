// Package checkpoint keeps checkpoints of a workspace: what its files were
// before each command or file edit the assistant made, and what the run
// left, so that `? /undo` can put back exactly what the run changed —
// content byte for byte, permission bits, symbolic links, directories,
// files created and deleted — and refuse when the user changed the same
// files since.
//
// A Store is the checkpoints of one workspace, kept under the state
// directory ($XDG_STATE_HOME/qsh/checkpoints/<hash of the workspace's
// path>/):
//
//	objects/xx/yyyy…   the files' contents, in git's loose-object format
//	                   (zlib, named by the blob's SHA-1), and objects/pack/
//	                   the contents a scan stored past its first four, in
//	                   one git pack: a store of its own, which `git
//	                   cat-file` reads and the repository never sees
//	records/ID.json    one checkpoint: the command, its time, and for each
//	                   path it changed the entry before and after
//	cache              the last scan's entries (stat data and blob ids), so
//	                   that a scan hashes only files whose stat data moved,
//	                   and outside git reads again only the directories
//	                   whose stat data moved (git's racy rule for both:
//	                   stat data taken within 3 s of a change is not
//	                   trusted)
//	root               the workspace's path, for people
//	lock               flock'd while records are written, pruned or restored
//
// What a scan covers. In a git work tree, the files git would see (`git
// ls-files --cached --others --exclude-standard`: tracked, and untracked
// but not ignored; ignored files such as build output are not kept), and
// the repository's own state that commands change — HEAD, the index,
// refs, packed-refs, reflogs, config — so that a `git commit --amend` or
// `git reset` is undone too; its objects are not (they are only ever
// added to, and a checkpoint's commits stay in them). git is run only to
// read (GIT_OPTIONAL_LOCKS=0): the user's index, reflog, stash and
// branches are never written by a checkpoint. Outside git, every file
// under the workspace but in directories that are caches by convention
// (node_modules, .venv, __pycache__, .cache, …).
//
// A watcher. On Linux, on a local file system, the store keeps an
// inotify watch on each directory of the workspace (outside .git and
// caches), added before a scan reads it. A scan reads the events queued
// (the kernel queues one before the change's system call returns) and
// stats only the paths they name, and those it cannot vouch for (racy,
// content not kept, several names); the rest is the last scan's. In git,
// ls-files runs again only when a name was made, removed or moved, a
// .gitignore changed, or the index's, excludes' or config's stat data
// moved. The first scan, an overflowed queue, a renamed directory or a
// watch refused make a scan whole. Not seen: writes through a shared
// mmap, which no event reports (a whole scan sees their mtime).
//
// The size policy: a file over Limits.MaxFile (16 MiB) is noted but its
// content not kept (undo says it cannot restore it); a workspace of over
// Limits.MaxFiles (100,000) files, or whose kept content would pass the
// store's size limit, is not checkpointed at all (the confirmation line
// says "undo: no"). Checkpoints older than Keep.Age are dropped, then the
// oldest while the store is over Keep.Bytes, and contents no checkpoint
// refers to are deleted.
package checkpoint
