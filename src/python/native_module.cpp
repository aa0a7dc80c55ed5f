// winnow._native: the engine under the `winnow` Python package (python/winnow). It exposes the
// stage registry (the package makes its stage classes from it), the pipeline loader (so a
// pipeline built in Python is checked by the same code, with the same messages, as the CLI's
// YAML) and run_pipeline, run on a thread of its own while the calling thread, with the GIL
// released, waits, draws progress and watches for Ctrl-C. A stage written in Python is the
// registry's `python` stage here only: it takes the GIL for each batch it sees.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "core/version.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_config.h"
#include "stages/builtin_stages.h"

namespace py = pybind11;

namespace winnow {
namespace {

// The exception classes (winnow.WinnowError and its subclasses), made at import.
PyObject* g_winnow_error = nullptr;
PyObject* g_config_error = nullptr;
PyObject* g_run_error = nullptr;

[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

// What the Python stages of one run share: their functions (owned by the caller of run(),
// which holds them until every stage is gone) and the first exception one of them raised.
struct PythonCalls {
  std::map<std::string, py::object> functions;
  PyObject* json_loads = nullptr;
  std::mutex mutex;
  py::object first_error;  // set and read with the GIL held
};

// A stage whose work is a Python function of a record: record -> bool (keep or drop) or a
// dict of annotations (None keeps). The record is the input's JSON object with the current
// text, id and the annotations so far.
class PythonStage final : public Stage {
 public:
  PythonStage(PyObject* function, PythonCalls& calls, std::string text_field, std::string id_field,
              StageContext& context)
      : function_(function),
        calls_(calls),
        text_field_(std::move(text_field)),
        id_field_(std::move(id_field)),
        label_(context.stage_name()),
        rejected_(context.declare_reason("rejected")) {}

  Status process(DocBatch& batch) override {
    py::gil_scoped_acquire gil;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      Status status = call(batch, i);
      if (!status.is_ok()) return status;
    }
    return Status::ok();
  }

 private:
  Status call(DocBatch& batch, size_t i) {
    try {
      py::dict record = make_record(batch, i);
      py::object result =
          py::reinterpret_steal<py::object>(PyObject_CallOneArg(function_, record.ptr()));
      if (!result) throw py::error_already_set();
      if (result.is_none()) return Status::ok();
      if (PyBool_Check(result.ptr())) {
        if (result.ptr() == Py_False) batch.drop(i, rejected_);
        return Status::ok();
      }
      if (!PyDict_Check(result.ptr())) {
        return fail(batch, i,
                    fmt::format("returned a {}: expected True, False, None or a dict of "
                                "annotations",
                                Py_TYPE(result.ptr())->tp_name));
      }
      for (auto [key, value] : py::reinterpret_borrow<py::dict>(result)) {
        Status status = annotate(batch, i, py::str(key), value);
        if (!status.is_ok()) return status;
      }
      return Status::ok();
    } catch (py::error_already_set& e) {
      std::string what = e.what();
      {
        std::lock_guard lock(calls_.mutex);
        if (!calls_.first_error) calls_.first_error = e.value();
      }
      return fail(batch, i, what);
    }
  }

  Status fail(const DocBatch& batch, size_t i, const std::string& what) const {
    return Status::errorf("python stage '{}': document '{}': {}", label_, batch.id(i), what);
  }

  py::dict make_record(const DocBatch& batch, size_t i) const {
    py::dict record;
    std::string_view raw = batch.record(i);
    if (!raw.empty()) {
      py::object parsed = py::reinterpret_steal<py::object>(
          PyObject_CallOneArg(calls_.json_loads, py::bytes(raw.data(), raw.size()).ptr()));
      if (!parsed) throw py::error_already_set();
      if (PyDict_Check(parsed.ptr())) record = py::reinterpret_borrow<py::dict>(parsed);
    }
    std::string_view text = batch.text(i), id = batch.id(i);
    record[text_field_.c_str()] = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
    record[id_field_.c_str()] = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(id.data(), static_cast<Py_ssize_t>(id.size()), "replace"));
    for (const auto& column : batch.annotations()) {
      if (!column->has(i)) continue;
      const char* name = column->name().c_str();
      switch (column->type()) {
        case AnnotationType::kFloat:
          record[name] = column->float_at(i);
          break;
        case AnnotationType::kInt:
          record[name] = column->int_at(i);
          break;
        case AnnotationType::kString:
          record[name] = column->string_at(i);
          break;
        case AnnotationType::kFloatVector: {
          py::list values;
          for (float v : column->vector_at(i)) values.append(v);
          record[name] = values;
          break;
        }
      }
    }
    return record;
  }

  Status annotate(DocBatch& batch, size_t i, const std::string& name, py::handle value) {
    if (value.is_none()) return Status::ok();
    AnnotationType type;
    if (PyBool_Check(value.ptr()) || PyLong_Check(value.ptr())) {
      type = AnnotationType::kInt;
    } else if (PyFloat_Check(value.ptr())) {
      type = AnnotationType::kFloat;
    } else if (PyUnicode_Check(value.ptr())) {
      type = AnnotationType::kString;
    } else if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
      type = AnnotationType::kFloatVector;
    } else {
      return fail(batch, i,
                  fmt::format("annotation '{}' is a {}: expected an int, float, str or list "
                              "of numbers",
                              name, Py_TYPE(value.ptr())->tp_name));
    }
    const AnnotationColumn* existing = batch.find_annotation(name);
    if (existing && existing->type() != type) {
      // An int where other records gave floats is still a number.
      if (existing->type() == AnnotationType::kFloat && type == AnnotationType::kInt) {
        type = AnnotationType::kFloat;
      } else {
        return fail(batch, i, fmt::format("annotation '{}' changes type between records", name));
      }
    }
    AnnotationColumn& column = batch.annotation(name, type);
    switch (type) {
      case AnnotationType::kInt:
        column.set_int(i, value.cast<int64_t>());
        break;
      case AnnotationType::kFloat:
        column.set_float(i, value.cast<double>());
        break;
      case AnnotationType::kString:
        column.set_string(i, value.cast<std::string>());
        break;
      case AnnotationType::kFloatVector: {
        std::vector<float> values;
        for (py::handle item : value) values.push_back(item.cast<float>());
        column.set_vector(i, values);
        break;
      }
    }
    return Status::ok();
  }

  PyObject* function_;  // borrowed: PythonCalls::functions holds it
  PythonCalls& calls_;
  std::string text_field_, id_field_;
  std::string label_;
  ReasonId rejected_;
};

StageSpec python_stage_spec(PythonCalls* calls) {
  StageSpec spec;
  spec.name = "python";
  spec.summary =
      "A Python function of each record: True/None keeps, False drops, a dict adds "
      "annotations (Python package only).";
  spec.params = {
      {"function", ParamType::kString, "", "module:name of the function", true},
      {"text_field", ParamType::kString, "text", "the record key holding the text"},
      {"id_field", ParamType::kString, "id", "the record key holding the id"},
  };
  spec.make = [calls](const StageParams& p,
                      StageContext& context) -> Result<std::unique_ptr<Stage>> {
    const std::string& key = p.get_string("function");
    if (!calls || !calls->functions.count(key)) {
      return p.error("function", fmt::format("no Python function '{}' in this run", key));
    }
    return std::unique_ptr<Stage>(new PythonStage(calls->functions.at(key).ptr(), *calls,
                                                  p.get_string("text_field"),
                                                  p.get_string("id_field"), context));
  };
  return spec;
}

// The CLI's registry, plus the `python` stage when the pipeline has one (only then: the
// loader's "unknown stage" message lists the known stages, as the CLI's does).
StageRegistry make_registry(PythonCalls* calls, bool with_python) {
  StageRegistry registry;
  register_builtin_stages(registry);
  if (with_python) registry.add(python_stage_spec(calls));
  return registry;
}

py::list stage_specs() {
  py::list out;
  StageRegistry registry = make_registry(nullptr, false);  // winnow.PythonStage is apart
  for (const StageSpec* spec : registry.all()) {
    py::list params;
    for (const ParamSpec& param : spec->params) {
      py::dict p;
      p["name"] = param.name;
      p["type"] = std::string(param_type_name(param.type));
      p["default"] = param.default_value;
      p["help"] = param.help;
      p["required"] = param.required;
      params.append(p);
    }
    py::dict s;
    s["name"] = spec->name;
    s["summary"] = spec->summary;
    s["params"] = params;
    s["takes"] = spec->takes.names();
    s["gives"] = spec->gives ? py::object(py::str(item_kind_plural(*spec->gives))) : py::none();
    s["cpus"] = spec->resources.cpus;
    s["gpus"] = spec->resources.gpus;
    out.append(s);
  }
  return out;
}

PipelineConfig load(const std::string& yaml, const std::string& source,
                    const StageRegistry& registry) {
  auto config = PipelineConfig::load_string(yaml, source, registry);
  if (!config.is_ok()) raise(g_config_error, config.status().message());
  return std::move(config).value();
}

// Loads and checks a pipeline as the CLI would; returns its fingerprint (what decides the
// output bytes).
std::string check(const std::string& yaml, const std::string& source, bool python_stages) {
  return load(yaml, source, make_registry(nullptr, python_stages)).fingerprint;
}

template <typename T>
std::optional<T> option(const py::dict& options, const char* key) {
  if (!options.contains(key) || options[key].is_none()) return std::nullopt;
  return options[key].cast<T>();
}

RunOptions run_options(const py::dict& o) {
  RunOptions options;
  if (auto inputs = option<std::vector<std::string>>(o, "inputs")) options.inputs = *inputs;
  if (auto output = option<std::string>(o, "output")) options.output = *output;
  options.output_format = option<std::string>(o, "output_format");
  if (auto on_error = option<std::string>(o, "on_error")) {
    if (*on_error != "fail" && *on_error != "skip") {
      raise(g_config_error, fmt::format("on_error: '{}' is not fail or skip", *on_error));
    }
    options.on_error = *on_error == "fail" ? OnError::kFail : OnError::kSkip;
  }
  if (auto threads = option<int64_t>(o, "threads")) {
    if (auto problem = threads_problem(*threads)) raise(g_config_error, "threads: " + *problem);
    options.threads = static_cast<int>(*threads);
  }
  if (auto batch_size = option<int64_t>(o, "batch_size")) {
    if (auto problem = batch_size_problem(*batch_size)) {
      raise(g_config_error, "batch_size: " + *problem);
    }
    options.batch_size = static_cast<uint64_t>(*batch_size);
  }
  if (auto gpus = option<double>(o, "gpus")) {
    if (auto problem = gpus_problem(*gpus)) raise(g_config_error, "gpus: " + *problem);
    options.gpus = *gpus;
  }
  options.autoscale = option<bool>(o, "autoscale");
  options.fuse = option<bool>(o, "fuse");
  options.overwrite = option<bool>(o, "overwrite").value_or(false);
  if (auto passes = option<std::string>(o, "passes")) {
    if (*passes == "identify")
      options.passes = PassMode::kIdentifyOnly;
    else if (*passes == "remove")
      options.passes = PassMode::kRemoveOnly;
    else if (*passes != "all") {
      raise(g_config_error, fmt::format("passes: '{}' is not all, identify or remove", *passes));
    }
  }
  return options;
}

// The latest progress sample, from the monitor's thread to the waiting caller.
struct ProgressState {
  std::mutex mutex;
  bool fresh = false;
  std::string pass;
  RunSample sample;
  uint64_t total_bytes = 0;
};

// Runs a pipeline. `functions` maps the `function` of each python stage to its callable;
// `progress(pass, documents_done, bytes_read, total_bytes, seconds)` is called on this thread.
// Returns the output folder. A setup problem raises ConfigError, a failed run RunError, Ctrl-C
// KeyboardInterrupt once the run has stopped cleanly.
py::dict run(const std::string& yaml, const std::string& source, const py::dict& options_dict,
             const py::dict& functions, const py::object& progress) {
  PythonCalls calls;
  calls.json_loads = py::module_::import("json").attr("loads").ptr();
  py::object json_module = py::module_::import("json");  // keeps json.loads alive
  for (auto [key, value] : functions)
    calls.functions[py::str(key)] = py::reinterpret_borrow<py::object>(value);
  StageRegistry registry = make_registry(&calls, !calls.functions.empty());
  PipelineConfig config = load(yaml, source, registry);
  RunOptions options = run_options(options_dict);

  std::atomic<bool> stop{false};
  options.stop_requested = &stop;
  ProgressState state;
  if (!progress.is_none()) {
    options.progress = true;
    options.progress_observer = [&state](const std::string& pass, const RunSample& sample,
                                         uint64_t total) {
      std::lock_guard lock(state.mutex);
      state.fresh = true;
      state.pass = pass;
      state.sample = sample;
      state.total_bytes = total;
    };
  }

  RunReport report;
  std::string crash;
  std::mutex done_mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::optional<py::error_already_set> interrupt;
  std::optional<py::error_already_set> progress_error;
  {
    py::gil_scoped_release release;
    std::thread runner([&] {
      try {
        report = run_pipeline(config, options);
      } catch (const std::exception& e) {
        crash = e.what();
      }
      std::lock_guard lock(done_mutex);
      done = true;
      done_cv.notify_all();
    });
    for (;;) {
      {
        std::unique_lock lock(done_mutex);
        if (done_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
      }
      py::gil_scoped_acquire gil;
      // Python's own SIGINT handler ran (it only sets a flag while we wait); its
      // KeyboardInterrupt asks the run to stop, and is raised once the run has stopped.
      if (!interrupt && PyErr_CheckSignals() != 0) {
        interrupt.emplace();
        stop = true;
      }
      std::optional<std::tuple<std::string, RunSample, uint64_t>> latest;
      {
        std::lock_guard lock(state.mutex);
        if (state.fresh) latest.emplace(state.pass, state.sample, state.total_bytes);
        state.fresh = false;
      }
      if (latest && !progress_error && !interrupt) {
        auto& [pass, sample, total] = *latest;
        try {
          progress(pass, sample.documents_done, sample.compressed_bytes, total, sample.t);
        } catch (py::error_already_set& e) {
          progress_error.emplace(std::move(e));
          stop = true;
        }
      }
    }
    runner.join();
  }
  if (interrupt) throw *interrupt;
  if (progress_error) throw *progress_error;
  if (!progress.is_none() && report.status.is_ok()) {
    // The end, which a short run's samples may not have reached: everything read.
    progress(state.pass, report.totals.documents, state.total_bytes, state.total_bytes,
             report.elapsed_seconds);
  }
  if (!crash.empty()) raise(g_run_error, crash);
  if (report.setup_failed) raise(g_config_error, report.status.message());
  if (!report.status.is_ok()) {
    py::object error = py::reinterpret_steal<py::object>(
        PyObject_CallOneArg(g_run_error, py::str(report.status.message()).ptr()));
    if (!error) throw py::error_already_set();
    // A Python stage's own exception is the cause (its traceback says where).
    if (calls.first_error) PyException_SetCause(error.ptr(), calls.first_error.release().ptr());
    PyErr_SetObject(g_run_error, error.ptr());
    throw py::error_already_set();
  }
  py::dict out;
  out["output_dir"] = report.output_dir;
  out["elapsed_seconds"] = report.elapsed_seconds;
  return out;
}

}  // namespace
}  // namespace winnow

PYBIND11_MODULE(_native, m) {
  using namespace winnow;
  m.doc() = "winnow's engine: stage registry, pipeline loader and runner";
  g_winnow_error = PyErr_NewException("winnow.WinnowError", PyExc_Exception, nullptr);
  py::object config_bases =
      py::make_tuple(py::handle(g_winnow_error), py::handle(PyExc_ValueError));
  g_config_error = PyErr_NewException("winnow.ConfigError", config_bases.ptr(), nullptr);
  py::object run_bases = py::make_tuple(py::handle(g_winnow_error), py::handle(PyExc_RuntimeError));
  g_run_error = PyErr_NewException("winnow.RunError", run_bases.ptr(), nullptr);
  m.attr("WinnowError") = py::handle(g_winnow_error);
  m.attr("ConfigError") = py::handle(g_config_error);
  m.attr("RunError") = py::handle(g_run_error);
  m.attr("version") = std::string(kVersion);
  m.def("stage_specs", &stage_specs, "Every registered stage: name, summary, parameters.");
  m.def("check", &check, py::arg("yaml"), py::arg("source"), py::arg("python_stages") = false,
        "Loads a pipeline as the CLI does; returns its fingerprint or raises ConfigError.");
  m.def("run", &run, py::arg("yaml"), py::arg("source"), py::arg("options"), py::arg("functions"),
        py::arg("progress"), "Runs a pipeline (see python/winnow).");
}
