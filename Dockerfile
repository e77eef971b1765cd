# nodeledger as a container image that needs no base image from a registry: the static binary and
# the CA certificates on scratch. `make image` builds both into .data/image first (CGO off, the
# time zones inside), then this file; docs/operations.md, "Containers", shows how to run it.
FROM scratch
COPY .data/image/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY .data/image/nodeledger /nodeledger
# scratch has no /tmp, which dev mode's embedded chain writes under (make image makes it 1777).
ADD .data/image/tmp.tar /
# Nobody's ids: the service writes no file when DATABASE_URL names its database.
USER 65534:65534
ENV LISTEN_ADDR=0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["/nodeledger"]
