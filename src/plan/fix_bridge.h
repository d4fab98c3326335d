#pragma once
// Connects the resolver's FixChooser to the source stage's fix KB (data/kb/fixes).
#include "plan/resolve.h"
#include "source/fix.h"

namespace ts::plan {

// The chooser keeps a reference to set: it must outlive the resolve() call.
FixChooser chooser_for(const source::FixSet& set);

}  // namespace ts::plan
