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
		{"wipefs -n /dev/sdb", Dangerous},
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
