package danger

import "testing"

func TestFileRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"touch a.txt", Dev},
		{"mkdir -p build/out", Dev},
		{"cp a.txt b.txt", Dev},
		{"cp a.txt /etc/hosts", Dangerous},
		{"mv a b", Dev},
		{"mv ~ /tmp/x", Blocked},
		{"rm a.txt", Dev},
		{"rm -rf node_modules", Dev},
		{"rm -rf src", Dangerous},
		{"rm -rf ~", Blocked},
		{"chmod +x run.sh", Dev},
		{"chmod -R 777 /", Blocked},
		{"truncate -s 0 log.txt", Dangerous},
		{"dd if=x.iso of=/dev/sdb", Blocked},
		{"tar -tzf a.tgz", Safe},
		{"tar -xzf a.tgz", Dev},
		{"unzip -l a.zip", Safe},
		{"tee out.txt", Dev},
		{"tee ~/.bashrc", Dangerous},
		{"gofmt -l .", Safe},
		{"gofmt -w main.go", Dev},
		{"vim -c '!rm -rf ~' x", Blocked},
		{"gzip -c notes.txt", Safe},
		{"gzip notes.txt", Dev},
	})
}

// TestFileFamilies: ACLs and attributes are judged as chmod is; sizes by
// what they do to the data and the disk.
func TestFileFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		{"setfacl -Rm g:dev:rwx /etc", Blocked},
		{"setfacl -m u:bob:r notes.txt", Dev},
		{"setfacl -m u:bob:r ~/.ssh/id_rsa", Dangerous},
		{"chattr -R +i /usr", Blocked},
		{"fallocate -l 20G disk.img", Dangerous},
		{"fallocate -l 100M test.img", Dev},
		{"fallocate --punch-hole -o 0 -l 4096 db.img", Dangerous},
		{"truncate -s +10M log.img", Dev},
		{"truncate --size=0 app.log", Dangerous},
		{"truncate -s 2G new-sparse.img", Dev},
		{"truncate -s 10 $F", Dangerous},
	})
}
