package danger

import "testing"

// TestEleventhFamilies pins the families the eleventh blind set found,
// with variants of its lines rather than the lines themselves, so that
// the set stays a test of generalisation.
func TestEleventhFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		// Inline code reading variables by a computed name reads any.
		{`perl -e 'for (keys %ENV) { print "$_ $ENV{$_}\n" }'`, Dangerous},
		{`python3 -c 'import os; [print(k, os.environ[k]) for k in os.environ]'`, Dangerous},
		{`node -e 'for (const k in process.env) console.log(k, process.env[k])'`, Dangerous},
		{`perl -e 'print $ENV{PATH}'`, Safe},
		{`perl -e 'print scalar keys %ENV'`, Safe},
		// A compiler told to run a program, or load a plugin.
		{"cc -wrapper sh,-c,'id' -c x.c", Dangerous},
		{"gcc -fplugin=./evil.so -c x.c", Dangerous},
		{"clang -B/tmp/tools -o app main.c", Dangerous},
		{"gcc -Wall -DBUILD=1 -o app main.c", Dev},
		// dd into the middle of a file; a new image stays everyday work.
		{"dd if=patch.bin of=firmware.img bs=512 seek=4 conv=notrunc", Dangerous},
		{"dd if=/dev/urandom of=state.sqlite bs=4k count=1 seek=10", Dangerous},
		{"dd if=/dev/zero of=test.img bs=1M count=64", Dev},
		{"dd if=/dev/zero of=big.img bs=1 count=0 seek=2G", Dev},
		// Emptying the build and dependency caches is dev (danger-classes'
		// dev covers them; heldout7, 9 and 10 say so).
		{"yarn cache clean", Dev},
		{"go clean -cache -modcache", Dev},
		{"npm cache ls", Safe},
		// yq's load() reads the file it names.
		{`yq '.auth = load("/root/.docker/config.json")' a.yml`, Dangerous},
		{`yq '.x = load(strenv(FILE))' a.yml`, Dangerous},
		{`yq '.defaults = load("defaults.yml")' a.yml`, Safe},
		// Read-only looks the set expected to stay safe.
		{"lsblk -f /dev/nvme0n1", Safe},
		{"blkid -o value -s UUID /dev/sda2", Safe},
		{"udevadm info -a /dev/sdb", Safe},
		{"tar -xO -f release.tar.gz VERSION", Safe},
		{"tar -xf release.tar.gz", Dev},
		{"bsdtar -xf src.zip", Dev},
		{"ar tv libx.a", Safe},
		{"ar rcs libx.a a.o b.o", Dev},
		{"dpkg --contents pkg.deb", Safe},
		{"dpkg -i pkg.deb", Dangerous},
		{"tcpdump -r trace.pcap -nn port 53", Safe},
		{"tcpdump -i any port 443", Dangerous},
		{"getent group docker", Safe},
		{"getent hosts \"$HOST\"", Safe},
		{"getent gshadow", Dangerous},
		{"virsh dominfo web1", Safe},
		{"virsh undefine web1 --remove-all-storage", Dangerous},
	})
}
