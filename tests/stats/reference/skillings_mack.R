# Reference values for sklearn_bench/stats/_skillings_mack.py.
#
# 1. The CRAN package Skillings.Mack (Srisuradetchai), as the file R/Ski.Mack.R of
#    its copy github ZacWarham/Skillings.Mack (commit
#    a2e9bc1834ae0e176b4f31db25bff388300fc863; the checkout's path in
#    SKILLINGS_MACK_DIR), sourced as it is. It needs MASS::ginv (installed with R) and
#    matrixcalc::matrix.rank (not installed; the SVD rank is defined below).
# 2. A hand-coded version from Skillings & Mack (1981), Technometrics 23, eqs.
#    (2.1)-(2.4): within-block ranks, missing cells at the block's mean rank,
#    A_j = sum_i sqrt(12/(k_i+1)) (r_ij - (k_i+1)/2), Sigma with -lambda_jl off the
#    diagonal, SM = A' Sigma^- A on chi2(rank Sigma).
#
# Run from the repository root:
#   SKILLINGS_MACK_DIR=/path/to/copy Rscript tests/stats/reference/skillings_mack.R
source("tests/stats/reference/_json.R")
library(MASS)
matrix.rank <- function(x) { d <- svd(x)$d; sum(d > max(dim(x)) * max(d) * .Machine$double.eps) }
source(file.path(Sys.getenv("SKILLINGS_MACK_DIR"), "R", "Ski.Mack.R"))

hand_sm <- function(scores) {       # blocks x learners, NA = missing
  n <- nrow(scores); k <- ncol(scores); A <- numeric(k)
  obs <- !is.na(scores)
  for (i in 1:n) {
    ki <- sum(obs[i, ]); r <- rank(scores[i, obs[i, ]])
    A[obs[i, ]] <- A[obs[i, ]] + sqrt(12 / (ki + 1)) * (r - (ki + 1) / 2)
  }
  lambda <- t(obs * 1) %*% (obs * 1)
  Sigma <- -lambda; diag(Sigma) <- 0; diag(Sigma) <- -rowSums(Sigma)
  e <- eigen(Sigma, symmetric = TRUE)
  keep <- e$values > 1e-9 * max(e$values)
  inv <- e$vectors[, keep] %*% diag(1 / e$values[keep], sum(keep)) %*% t(e$vectors[, keep])
  SM <- drop(t(A) %*% inv %*% A)
  list(statistic = SM, df = sum(keep), pvalue = pchisq(SM, sum(keep), lower.tail = FALSE),
       A = I(A))
}
package_sm <- function(scores) {     # Ski.Mack wants treatments x blocks
  out <- NULL
  capture.output(out <- Ski.Mack(t(scores), suppress = TRUE))
  A <- drop(out$adjustedSum)
  SM <- drop(A %*% ginv(out$varCovarMatrix) %*% A)
  list(statistic = SM, pvalue = drop(out$pValue), A = I(A))
}
make_case <- function(name, scores) {
  h <- hand_sm(scores); p <- package_sm(scores)
  stopifnot(abs(h$statistic - p$statistic) < 1e-9 * max(1, p$statistic),
            abs(h$pvalue - p$pvalue) < 1e-9, max(abs(h$A - p$A)) < 1e-12)
  list(name = name, scores = scores, statistic = p$statistic, pvalue = p$pvalue,
       df = h$df, adjusted_sums = p$A, friedman_uncorrected = if (!anyNA(scores)) {
         n <- nrow(scores); k <- ncol(scores); R <- t(apply(scores, 1, rank))
         12 * n / (k * (k + 1)) * sum((colMeans(R) - (k + 1) / 2)^2) } else NA)
}

# Skillings & Mack (1981), Table 1: four methods of assembling a product, 9 blocks.
paper <- matrix(c(3.2,4.1,3.8,4.2,  3.1,3.9,3.4,4.0,  4.3,3.5,4.6,4.8,
                  3.5,3.6,3.9,4.0,  3.6,4.2,3.7,3.9,  4.5,4.7,3.7, NA,
                   NA,4.2,3.4, NA,  4.3,4.6,4.4,4.9,  3.5, NA,3.7,3.9),
                ncol = 4, byrow = TRUE, dimnames = list(NULL, c("A", "B", "C", "D")))
set.seed(1981)
random_case <- function(n, k, p_missing, digits) {
  s <- matrix(round(runif(n * k) + rep(seq(0, 0.3, length = k), each = n), digits), n, k)
  s[matrix(runif(n * k) < p_missing, n, k)] <- NA
  for (i in 1:n) if (sum(!is.na(s[i, ])) < 2) s[i, 1:2] <- c(0.5, 0.6)
  s
}
cases <- list(make_case("skillings_mack_1981_table1", paper),
              make_case("random_12x4_no_ties", random_case(12, 4, 0.15, 6)),
              make_case("random_20x5_ties", random_case(20, 5, 0.2, 1)),
              make_case("random_15x6", random_case(15, 6, 0.3, 3)),
              make_case("complete_10x4", random_case(10, 4, 0, 5)))
writeLines(to_json(list(meta = list(generator = "tests/stats/reference/skillings_mack.R",
                                    R = R.version.string), cases = cases)),
           "tests/stats/reference/skillings_mack.json")
