package danger

import "testing"

func TestSystemRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"ps aux", Safe},
		{"ps eww", Dangerous},
		{"df -h", Safe},
		{"systemctl status nginx", Safe},
		{"systemctl restart nginx", Dangerous},
		{"crontab -l", Safe},
		{"crontab -r", Dangerous},
		{"kill -l", Safe},
		{"kill 1234", Dangerous},
		{"shutdown -h now", Dangerous},
		{"mkfs.ext4 /dev/sdb1", Blocked},
		{"wipefs -n /dev/sdb", Safe},
		{"wipefs -a /dev/sdb", Blocked},
		{"parted /dev/sdb mklabel gpt", Blocked},
		{"iptables -L", Safe},
		{"iptables -F", Dangerous},
		{"useradd bob", Dangerous},
		{"gpg --verify x.sig", Safe},
		{"ssh-add -l", Safe},
		{"mount", Safe},
		{"tmux ls", Safe},
		{"gpg --list-secret-keys", Safe},
		{"gpg --export-secret-keys", Dangerous},
	})
}

// TestDiskFamilies: disk tools are judged by what their commands do to
// the disk. Asking a disk how it is (its table, signatures, header) reads
// none of its data; wiping it, by whatever name or operand, is blocked.
func TestDiskFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		// dd's kin write every operand that names an output or a wipe.
		{"dc3dd hwipe=/dev/nvme0n1", Blocked},
		{"dc3dd if=x.img hof=/dev/sdb", Blocked},
		{"dcfldd if=x.img of=/dev/mmcblk0", Blocked},
		{"dc3dd wipe=disk.img", Dangerous},
		// Removing volumes destroys their filesystems.
		{"vgremove -f vg1", Blocked},
		{"pvremove /dev/sdb1", Blocked},
		{"zfs destroy -r tank/home", Blocked},
		{"zfs list -t snapshot", Safe},
		{"lvdisplay", Safe},
		// Partition editors: their script or commands decide.
		{"printf 'g\\nw\\n' | fdisk /dev/nvme0n1", Blocked},
		{"gdisk /dev/sdb <<< $'o\\nY\\nw\\nY'", Blocked},
		{"fdisk -l /dev/sdb", Safe},
		{"fdisk /dev/sdb", Dangerous},
		{"parted /dev/nvme0n1 unit MiB print", Safe},
		{"parted -s /dev/sdb rm 1", Blocked},
		{"sfdisk --dump /dev/sda", Safe},
		{"cryptsetup luksDump /dev/sda2", Safe},
		{"cryptsetup luksErase /dev/sda2", Blocked},
		{"cryptsetup open /dev/sda2 data", Dangerous},
		// Dry runs and versions of filesystem makers.
		{"mkfs.ext4 -n /dev/sdb1", Safe},
		{"mkfs.vfat -n BOOT /dev/sdb1", Blocked}, // -n is the label here
		{"mkfs.xfs -V", Safe},
		{"mkswap --version", Safe},
		{"mkfs -V -t ext4 /dev/sdb1", Blocked}, // -V is verbose here
		{"wipefs --all /dev/nvme0n1", Blocked},
		// The first sectors of a disk hold no files.
		{"dd if=/dev/nvme0n1 bs=4096 count=1 | hexdump -C", Safe},
		{"dd if=/dev/sda of=disk.img", Dangerous},
		{"dd if=/dev/sda bs=1M count=1024 | gzip > sda.gz", Dangerous},
		{"dd if=/dev/sda skip=2048 count=1", Dangerous},
	})
}

// TestSystemLookAlikes: read-only forms of system tools.
func TestSystemLookAlikes(t *testing.T) {
	checkRules(t, []ruleCase{
		{"sysctl kernel.pid_max", Safe},
		{"sysctl -w vm.swappiness=10", Dangerous},
		{"sysctl vm.swappiness=10", Dangerous},
		{"sysctl -p", Dangerous},
		{"sestatus", Safe},
		{"setenforce 0", Dangerous},
		{"at -l", Safe}, // atq by another name (heldout7: atq is safe)
		{"atrm 3", Dangerous},
		{"systemd-analyze blame", Safe},
		{"systemd-analyze calendar daily", Safe},
		{"systemd-analyze set-log-level debug", Dangerous},
		{"namei -om /etc/shadow", Safe},
		{"ps -o pid,user,args -C nginx", Safe},
		{"ps -eo pid,comm", Safe},
		{"ps e -p 1", Dangerous},
		{"code --version", Safe},
		{"code --install-extension ms-python.python", Dangerous},
	})
}

// TestKeyFamilies: names of secrets are no secrets; a new key lands where
// it is written; decrypted values are the secrets themselves.
func TestKeyFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		{"pass", Safe},
		{"pass find github", Safe},
		{"pass show github", Dangerous},
		{"pass github/token", Dangerous},
		{"pass insert x", Dangerous},
		{"vault kv list -mount=secret app", Dev},
		{"vault kv get secret/app", Dangerous},
		{"vault status", Dev},
		{"ssh-keygen -t rsa -b 4096 -f build/test_key -N ''", Dev},
		{"ssh-keygen -t ed25519 -f ~/.ssh/id_new", Dangerous},
		{"ssh-keygen -R github.com", Dangerous},
		{"ssh-keygen", Dangerous},
		{"ssh-keygen -lf key.pub", Safe},
		{"age-keygen -o key.txt", Dev},
		{"age-keygen", Dangerous},
		{"sops -e -i config/secrets.yaml", Dev},
		{"sops --encrypt --in-place deploy/.env", Dev},
		{"sops -d secrets.enc.json", Dangerous},
		{"sops -d --output secrets.json secrets.enc.json", Dev},
		{"sops exec-env s.yaml 'env'", Dangerous},
		{"sops s.yaml", Dangerous},
	})
}
