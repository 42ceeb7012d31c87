package danger

import "testing"

// TestFamilyRules: tools the table does not name, judged by their
// family; everything else stays unknown.
func TestFamilyRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"nm ./bin/app", Safe},
		{"objdump -d ./bin/app", Safe},
		{"readelf -a ./bin/app", Safe},
		{"x86_64-linux-gnu-objdump -d a.o", Safe},
		{"arm-none-eabi-size build/fw.elf", Safe},
		{"llvm-nm-17 a.o", Safe},
		{"eu-readelf -a x", Safe},
		{"nm ~/.ssh/id_rsa", Dangerous},
		{"dot -Tpng graph.dot -o graph.png", Dev},
		{"dot -Tpng graph.dot -ograph.png", Dev},
		{"dot -Tpng graph.dot -o /etc/x.png", Dangerous},
		{"dot -Tsvg graph.dot", Safe},
		{"neato -Tsvg g.dot > g.svg", Dev},
		{"ffprobe video.mp4", Safe},
		{"ffprobe https://x.example/v.mp4", Dangerous},
		{"tflint", Dev},
		{"tflint --fix", Dev},
		{"ktlint src", Dev},
		{"cppcheck src", Dev},
		{"cppcheck --plugin x src", Dangerous},
		{"mylint --exec rm", Dangerous},
		{"mylint --fix /etc/hosts", Dangerous},
		{"dune build", Dev},
		{"dune test", Dev},
		{"dune install", Dangerous},
		{"scons -j4", Dev},
		{"objcopy a b", Dev}, // a writer, judged by where it writes: not a reader
		{"objcopy a /usr/lib/b", Dangerous},
		{"strip a.out", Dev},
		{"strip /usr/bin/ls", Dangerous},
		{"frobnicate x", Dangerous},
	})
}
