// Package chat holds what the wire clients share: the provider-neutral
// conversation ([Message], [Call]), one model request and its [Reply], the
// [Error] a provider answers with, and a server-sent-events reader.
package chat
