package danger

import "testing"

// TestDryRuns: help, dry runs and syntax checks change nothing, whatever
// the command they are given to would do; what they still run, print or
// reach is judged as ever.
func TestDryRuns(t *testing.T) {
	checkRules(t, []ruleCase{
		{"kubectl apply -f k8s/ --dry-run=server", Dev},
		{"kubectl scale deploy/x --replicas=0 --dry-run=client", Dev},
		{"kubectl delete ns prod --dry-run=none", Dangerous},
		{"helm upgrade --install api ./chart --dry-run", Dev},
		{"helm rollback api 3", Dangerous},
		{"git push -n origin +main", Dev},
		{"git push --force origin main", Dangerous},
		{"rsync -rn --delete build/ /srv/www/", Safe},
		{"rsync -a --delete build/ /srv/www/", Dangerous},
		{`rsync -n -e 'sh -c "rm -rf ~"' a host:b`, Blocked},
		{"apt-get -s upgrade", Safe},
		{"apt install -s nginx", Safe},
		{"apt install nginx", Dangerous},
		{"pip install --dry-run requests", Dev},
		{"pnpm publish --dry-run", Dev},
		{"cargo publish -n", Dev},
		{"cargo publish", Dangerous},
		{"goreleaser release --skip=publish", Dev},
		{"goreleaser release", Dangerous},
		{"aws ec2 run-instances --image-id ami-1 --dry-run", Dev},
		{"aws s3 cp ./x s3://b/ --dryrun", Dev},
		{"aws s3 rm s3://b/x --recursive", Dangerous},
		{"az deployment sub what-if -l westeurope -f main.bicep", Dev},
		{"rclone copy --dry-run ./a remote:b", Dev},
		{"rclone purge remote:b", Dangerous},
		{"rclone lsd remote:", Dev},
		// Help.
		{"kubectl delete --help", Safe},
		{"terraform apply -help", Safe},
		{"npm publish --help", Safe},
		{"docker run --help", Safe},
		{"docker run alpine --help", Dev}, // --help goes to the container
		// Syntax checks.
		{"sh -n deploy.sh", Safe},
		{"bash -nv ~/.bashrc", Safe},
		{"node -c index.js", Safe},
		{"php -l index.php", Safe},
		{"perl -c x.pl", Dev}, // BEGIN blocks run
	})
}
