# Exact permutation p-values of Friedman's statistic, for tests/stats/test_friedman.py.
#
#   cd tests/stats/reference && Rscript friedman_exact.R   # writes friedman_exact.json
#
# R 4.2 with coin. Independent of sklearn_bench: ranks by R's rank() (mid-ranks
# for ties); under H0 each of the k! permutations of a block's ranks is equally
# likely, independently over blocks. Three ways:
#   brute   : every one of the (k!)^N configurations (duplicates under ties kept);
#   convolve: the distribution of the full rank-sum vector (no symmetry
#             reduction), block by block, over all k! permutations per block;
#   coin    : coin::friedman_test(distribution = approximate(nresample = B)),
#             a Monte Carlo estimate (its SE is recorded).
# The p-value is P(sum_j S*_j^2 >= sum_j S_j^2) (chi2_F increases with it),
# compared with a relative fuzz of 1e-9. friedman.test gives the chi2 p-value.
suppressPackageStartupMessages(library(coin))

perm_matrix <- function(k) {
  if (k == 1) return(matrix(1L, 1, 1))
  p <- perm_matrix(k - 1)
  do.call(rbind, lapply(seq_len(k), function(i)
    cbind(i, ifelse(p >= i, p + 1L, p))))
}

block_ranks <- function(scores) t(apply(scores, 1, rank))

p_brute <- function(r) {
  n <- nrow(r); k <- ncol(r); P <- perm_matrix(k); m <- nrow(P)
  obs <- sum(colSums(r)^2)
  grid <- as.matrix(expand.grid(rep(list(seq_len(m)), n)))
  S <- matrix(0, nrow(grid), k)
  for (i in seq_len(n)) S <- S + matrix(r[i, ][t(P[grid[, i], ])], ncol = k, byrow = TRUE)
  mean(rowSums(S^2) >= obs * (1 - 1e-9))
}

p_convolve <- function(r) {
  n <- nrow(r); k <- ncol(r); P <- perm_matrix(k); m <- nrow(P)
  obs <- sum(colSums(r)^2)
  base <- 2 * n * k + 1
  states <- matrix(0, 1, k); prob <- 1
  for (i in seq_len(n)) {
    arr <- matrix(r[i, ][t(P)], ncol = k, byrow = TRUE) * 2  # doubled: integers
    new <- states[rep(seq_len(nrow(states)), each = m), , drop = FALSE] +
      arr[rep(seq_len(m), times = nrow(states)), , drop = FALSE]
    w <- rep(prob / m, each = m)
    key <- as.vector(new %*% base^(seq_len(k) - 1))
    keep <- !duplicated(key)
    prob <- as.vector(tapply(w, factor(key, levels = key[keep]), sum))
    states <- new[keep, , drop = FALSE]
  }
  sum(prob[rowSums(states^2) >= 4 * obs * (1 - 1e-9)])
}

p_coin <- function(scores, B) {
  n <- nrow(scores); k <- ncol(scores)
  d <- data.frame(y = as.vector(t(scores)),
                  x = factor(rep(seq_len(k), n)),
                  b = factor(rep(seq_len(n), each = k)))
  set.seed(20250101)
  pvalue(friedman_test(y ~ x | b, data = d,
                       distribution = approximate(nresample = B)))[1]
}

set.seed(11)
cases <- list(
  list(id = "k2_N3_same_winner", scores = rbind(c(.1, .2), c(.3, .4), c(.2, .25)),
       how = "brute"),
  list(id = "k3_N3_perfect_agreement", scores = rbind(1:3, 1:3, 1:3) / 10,
       how = "brute"),
  list(id = "k3_N5_random", scores = matrix(round(runif(15), 3), 5, 3),
       how = "brute"),
  list(id = "k3_N6_ties", scores = rbind(c(1, 1, 2), c(3, 1, 2), c(1, 2, 2),
                                          c(1, 2, 3), c(2, 2, 2), c(1, 3, 2)),
       how = "brute"),
  list(id = "k4_N4_ties", scores = rbind(c(1, 2, 2, 4), c(1, 1, 3, 2),
                                          c(2, 1, 3, 4), c(1, 2, 4, 3)),
       how = "brute"),
  list(id = "k4_N5_demsar_auc", scores = -rbind(
    c(0.763, 0.768, 0.771, 0.798), c(0.599, 0.591, 0.590, 0.569),
    c(0.954, 0.971, 0.968, 0.967), c(0.628, 0.661, 0.654, 0.657),
    c(0.882, 0.888, 0.886, 0.898)), how = "convolve"),
  list(id = "k5_N4_random", scores = matrix(round(runif(20), 2), 4, 5),
       how = "convolve"),
  list(id = "k3_N12_ties_coin", scores = matrix(sample(1:4, 36, TRUE), 12, 3),
       how = "coin")
)

B <- 200000
num <- function(x) formatC(x, digits = 17, format = "g")
out <- character(0)
for (cs in cases) {
  s <- cs$scores; r <- block_ranks(s)
  p <- switch(cs$how, brute = p_brute(r), convolve = p_convolve(r),
              coin = p_coin(s, B))
  se <- if (cs$how == "coin") sqrt(p * (1 - p) / B) else 0
  chi <- friedman.test(s)
  rows <- paste0("[", apply(s, 1, function(v) paste(num(v), collapse = ", ")), "]")
  out <- c(out, sprintf(
    paste0('  {"id": "%s", "method": "%s", "scores": [%s],\n',
           '   "exact_pvalue": %s, "pvalue_se": %s, "chi2": %s, "chi2_pvalue": %s}'),
    cs$id, cs$how, paste(rows, collapse = ", "), num(p), num(se),
    num(unname(chi$statistic)), num(chi$p.value)))
  cat(cs$id, cs$how, p, "\n")
}
writeLines(c("[", paste(out, collapse = ",\n"), "]"), "friedman_exact.json")
