package mcp

// For the tests of package mcp_test, which may import ai even once ai
// imports this package.
var Everything = everything
