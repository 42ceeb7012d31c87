package danger

import "testing"

func TestRemoteRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"terraform plan", Dev},
		{"terraform apply -auto-approve", Dangerous},
		{"terraform output -json", Dangerous},
		{"terraform fmt -check", Safe},
		{"pulumi preview", Dev},
		{"pulumi up", Dangerous},
		{"ansible-playbook site.yml --check", Dev},
		{"aws s3 ls", Dev},
		{"aws s3 rm s3://b/x", Dangerous},
		{"aws secretsmanager get-secret-value --secret-id x", Dangerous},
		{"gcloud compute instances list", Dev},
		{"vercel", Dangerous},
		{"psql -c 'select 1'", Dev},
		{"psql -c 'drop table users'", Dangerous},
		{"redis-cli flushall", Dangerous},
		{"pg_dump app > dump.sql", Dev},
		{"terraform plan -var-file=prod.tfvars", Dev},
	})
}
