#include "dedup/kmeans.h"

#include <faiss/Clustering.h>
#include <faiss/Index.h>
#include <faiss/impl/FaissAssert.h>
#include <faiss/utils/random.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "dedup/blas_gemm.h"

namespace winnow {

namespace {

// The assignment index faiss::Clustering calls: exact nearest centroid, by blocks.
class BlockFlatIndex final : public faiss::Index {
 public:
  BlockFlatIndex(int d, bool inner_product, int threads)
      : faiss::Index(d, inner_product ? faiss::METRIC_INNER_PRODUCT : faiss::METRIC_L2),
        threads_(threads) {}

  void add(idx_t n, const float* x) override {
    centroids_.insert(centroids_.end(), x, x + n * d);
    ntotal += n;
  }
  void reset() override {
    centroids_.clear();
    ntotal = 0;
  }
  void search(idx_t n, const float* x, idx_t k, float* distances, idx_t* labels,
              const faiss::SearchParameters*) const override {
    FAISS_THROW_IF_NOT_MSG(k == 1, "BlockFlatIndex finds the nearest centroid only");
    std::vector<int64_t> found(n);
    assign_nearest(x, n, d, centroids_.data(), ntotal, metric_type == faiss::METRIC_INNER_PRODUCT,
                   threads_, found.data(), distances);
    std::copy(found.begin(), found.end(), labels);
  }

 private:
  std::vector<float> centroids_;
  int threads_;
};

}  // namespace

Result<KMeansResult> train_kmeans(const float* x, size_t n, size_t d,
                                  const KMeansOptions& options) {
  if (options.clusters < 1 || n < options.clusters) {
    return Status::errorf("k-means: {} points cannot make {} clusters", n, options.clusters);
  }
  faiss::ClusteringParameters cp;
  cp.niter = 1;  // one iteration per call, so `tol` can stop it (faiss has no tolerance)
  cp.seed = static_cast<int>(options.seed & 0x7fffffff);
  cp.spherical = options.spherical;
  cp.max_points_per_centroid = static_cast<int>(options.max_points_per_centroid);
  cp.min_points_per_centroid = 0;  // the caller reports thin clusters; faiss would print
  cp.verbose = false;
  faiss::Clustering clustering(static_cast<int>(d), static_cast<int>(options.clusters), cp);
  BlockFlatIndex index(static_cast<int>(d), options.spherical, options.threads);
  KMeansResult result;
  result.clusters = options.clusters;
  result.trained_on = std::min(n, options.clusters * options.max_points_per_centroid);
  // faiss's OpenMP loops (centroid sums, renormalisation) give the same result for any count.
  const int saved_threads = omp_get_max_threads();
  omp_set_num_threads(std::max(options.threads, 1));
  // faiss draws its capped sample on every train() call; draw it once here, the way faiss does
  // (rand_perm with the same seed, the first k x max_points_per_centroid rows), so the
  // one-iteration calls below neither repeat the copy nor differ from one faiss call.
  std::vector<float> sample;
  if (n > result.trained_on) {
    std::vector<int> perm(n);
    faiss::rand_perm(perm.data(), n, cp.seed);
    sample.resize(result.trained_on * d);
    for (size_t i = 0; i < result.trained_on; ++i) {
      std::copy(x + size_t(perm[i]) * d, x + size_t(perm[i] + 1) * d, sample.data() + i * d);
    }
    x = sample.data();
    n = result.trained_on;
  }
  try {
    for (int iteration = 0; iteration < std::max(options.max_iter, 1); ++iteration) {
      // Later calls start from the centroids of the last one (faiss uses them as the
      // initialisation) and draw the same training sample (same seed).
      clustering.train(static_cast<faiss::Index::idx_t>(n), x, index);
      double objective = clustering.iteration_stats.back().obj;
      result.objective.push_back(objective);
      result.iterations = iteration + 1;
      if (iteration > 0) {
        double previous = result.objective[result.objective.size() - 2];
        if (std::abs(previous - objective) <= options.tol * std::max(std::abs(objective), 1e-30)) {
          break;
        }
      }
      if (n == options.clusters) break;  // faiss just copies the points
    }
  } catch (const faiss::FaissException& e) {
    omp_set_num_threads(saved_threads);
    return Status::errorf("k-means (faiss): {}", e.what());
  }
  omp_set_num_threads(saved_threads);
  result.centroids = std::move(clustering.centroids);
  return result;
}

}  // namespace winnow
