package ai

import "testing"

func TestRedact(t *testing.T) {
	t.Parallel()
	env := []string{
		"HOME=/home/me",
		"GITHUB_TOKEN=abcdef123456",
		"DB_PASSWORD=hunter2hunter2",
		"MY_API_KEY=short",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"SSH_AUTH_SOCK=/tmp/ssh-agent.sock",
		"PATH=/usr/bin",
		"PGPASSWD=pgsecret99",
		"GOOGLE_APPLICATION_CREDENTIALS=/home/me/creds.json",
	}
	r := NewRedactor(env, map[string]string{"QSH_AI_API_KEY": "my-configured-key"})
	tests := []struct{ in, want string }{
		{"nothing here", "nothing here"},
		{"echo abcdef123456", "echo [REDACTED:GITHUB_TOKEN]"},
		{"psql password hunter2hunter2!", "psql password [REDACTED:DB_PASSWORD]!"},
		{"short stays", "short stays"},
		{"key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY end", "key [REDACTED:AWS_SECRET_ACCESS_KEY] end"},
		{"sock /tmp/ssh-agent.sock", "sock /tmp/ssh-agent.sock"},
		{"PATH /usr/bin", "PATH /usr/bin"},
		{"pgsecret99", "[REDACTED:PGPASSWD]"},
		{"file /home/me/creds.json", "file [REDACTED:GOOGLE_APPLICATION_CREDENTIALS]"},
		{"my-configured-key", "[REDACTED:QSH_AI_API_KEY]"},
		{"export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx123", "export OPENAI_API_KEY=[REDACTED]"},
		{"sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[REDACTED]"},
		{"token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [REDACTED]"},
		{"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[REDACTED]"},
		{"AKIAIOSFODNN7EXAMPLE is the id", "[REDACTED] is the id"},
		{"slack xoxb-1234567890-abcdefghij", "slack [REDACTED]"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter", "[REDACTED]\nafter"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "[REDACTED]"},
		{"git clone https://bob:pa55word@example.com/x.git", "git clone https://bob:[REDACTED]@example.com/x.git"},
		{"sk-is-a-word", "sk-is-a-word"},
		{"public key -----BEGIN PUBLIC KEY-----", "public key -----BEGIN PUBLIC KEY-----"},
	}
	for _, tc := range tests {
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
