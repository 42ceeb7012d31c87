package danger

import "testing"

func TestContainerRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"docker ps -a", Safe},
		{"docker build -t app .", Dev},
		{"docker run --rm -v $PWD:/src -w /src golang:1.26 go test ./...", Dev},
		{"docker run --privileged alpine sh", Dangerous},
		{"docker run --rm -v /home/alice:/h alpine rm -rf /h", Blocked},
		{"docker push app", Dangerous},
		{"docker compose up -d", Dev},
		{"docker compose down -v", Dangerous},
		{"docker system prune -af", Dangerous},
		{"kubectl get pods", Dev},
		{"kubectl apply -f k8s/", Dangerous},
		{"kubectl apply --dry-run=client -f k8s/", Dev},
		{"kubectl delete pod x", Dangerous},
		{"kubectl config view --raw", Dangerous},
		{"helm list", Dev},
		{"helm uninstall app", Dangerous},
		{"helm get values app", Dangerous},
		{"kubectl get secrets", Dev},
		{"kubectl get secret db -o yaml", Dangerous},
		{"kubectl get secret db -o jsonpath={.metadata.name}", Dev},
	})
}
