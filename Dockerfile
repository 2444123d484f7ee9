# The embedded reference as an image: `docker build -t notification-api-reference .`, then
#   docker run --rm -p 3000:3000 -e REFERENCE_API_KEY=… -e REFERENCE_SECONDARY_API_KEY=… \
#     -e REFERENCE_RESTRICTED_API_KEY=… notification-api-reference
# Building needs a registry for the base image; where the engine has none, `npm run reference:image` builds
# notification-api-reference:local from the local Node binary and this final stage's ENTRYPOINT/CMD/USER/….
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
# release-manifest.json comes with the files (a release commits it at its tag): a run in the image hashes its own
# shipped files against it, so the image is a released suite only when its files are the release's.
COPY . .
# The CLI's bundle (bin/cli-bundle.mjs), built now: /app is root's, so the CLI running as node could not build it and
# would start through tsx, about 3× slower per start.
RUN node bin/conformance.js --version
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/conformance.js"]
# The same processing delay as the reference `conformance run` embeds, so concurrent duplicates overlap (IDEM-03).
CMD ["reference", "--host", "0.0.0.0", "--port", "3000", "--processing-delay-ms", "150"]
