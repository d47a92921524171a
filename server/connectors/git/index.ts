/**
 * The `git` type: a repository by http(s) URL, or one on the server (a working copy or a bare
 * repository) in a place the company may read (company-places.ts: relative to its data folder,
 * or in its own sub-folder of a granted root), read with isomorphic-git. Its endpoints are its
 * branches; workflows read their SQL files from it at a branch, a tag or a commit (`readFileAt`,
 * `listFilesAt`).
 *
 * Over HTTP, every connection goes through the reach guard (`options.reach`), redirects
 * included, and what a remote says is never echoed beyond a short line. On the server, every
 * file isomorphic-git opens is resolved again and must stay in the company's place (confined-fs.ts).
 *
 * A remote repository is fetched into the company's own cache folder (`DATA_DIR/companies/<id>/git-cache`),
 * one folder per URL and credentials, and reused: a branch or tag is fetched alone and shallow (its newest commit) while
 * the cache holds nothing deeper; a commit id not yet in the cache makes it fetch the whole
 * history once. Listing branches asks the server directly and needs no cache.
 */

export { openGitConnector } from './connector';
export { type GitOptions } from './location';
export { listBranches, listFilesAt, readFileAt, resolveCommit, type BranchList } from './reads';
export { guardedHttp } from './remote';
