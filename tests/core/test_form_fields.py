import pytest
from django import forms

from apps.core.form_fields import form_field


class _Form(forms.Form):
    colour = forms.ChoiceField(required=False)
    note = forms.CharField(required=False)


def test_form_field_returns_the_forms_own_copy_to_set_its_choices():
    form = _Form({})
    form_field(form, "colour", forms.ChoiceField).choices = [("red", "Red")]

    assert form.fields["colour"].choices == [("red", "Red")]
    assert _Form.base_fields["colour"].choices == []  # the declared field is left as it was


def test_form_field_of_another_kind_is_refused_naming_form_and_field():
    with pytest.raises(TypeError, match=r"_Form\.note is a CharField, not a ChoiceField"):
        form_field(_Form({}), "note", forms.ChoiceField)
